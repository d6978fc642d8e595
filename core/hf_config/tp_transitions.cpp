// SPDX-License-Identifier: Apache-2.0
#include "hf_config/tp_transitions.h"

#include "hf_config/placement_rules.h"

namespace hsdp {

namespace {

// Replicate on every dim but tp, which takes `onTp`.
Json layoutWith(const LayoutMesh& mesh, const std::string& onTp) {
    Json out = Json::array();
    for (const std::string& dim : mesh.dimNames) out.push_back(dim == "tp" ? onTp : "R");
    return out;
}

}  // namespace

Json torchtitanTpTransitions(int64_t hiddenSize, const ParallelLayout& l, DType dtype,
                             const std::string& meshName) {
    Json out = Json::array();
    if (l.tp == 1) return out;
    const LayoutMesh mesh = denseMesh(l);
    const char* const partial = "Partial(sum)";
    const char* const sequence = "Shard(0)";
    const char* const whole = "Replicate()";
    const struct {
        const char* name;
        const char* src;
        const char* dst;
    } steps[] = {
        {"model.embed_tokens.out.sequence_parallel", partial, sequence},
        {"self_attn.in.sequence_gather", sequence, whole},
        {"self_attn.o_proj.out.sequence_parallel", partial, sequence},
        {"mlp.in.sequence_gather", sequence, whole},
        {"mlp.down_proj.out.sequence_parallel", partial, sequence},
        {"lm_head.in.sequence_gather", sequence, whole},
    };
    for (const auto& step : steps) {
        Json t = {{"name", step.name}};
        if (!meshName.empty()) t["mesh"] = meshName;
        t["shape"] = {16, hiddenSize};
        t["dtype"] = std::string(dtypeName(dtype));
        t["src"] = layoutWith(mesh, step.src);
        t["dst"] = layoutWith(mesh, step.dst);
        out.push_back(std::move(t));
    }
    return out;
}

}  // namespace hsdp
