// SPDX-License-Identifier: Apache-2.0
#include "hf_config/parallel_layout.h"

#include <cerrno>
#include <cstdlib>
#include <set>
#include <sstream>

#include "hf_config/model_config.h"
#include "hf_config/model_config_error.h"

namespace hsdp {

namespace {

[[noreturn]] void meshError(const std::string& rule) {
    throw ModelConfigError("--mesh: " + rule);
}

int64_t parseDegree(const std::string& name, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || value < 1 || value > (1 << 20))
        meshError(name + " expects an integer from 1 to 1048576, got '" + text + "'");
    return value;
}

std::string layoutText(const ParallelLayout& l) {
    return "dp_replicate=" + std::to_string(l.dpReplicate) +
           " x dp_shard=" + std::to_string(l.dpShard) + " x tp=" + std::to_string(l.tp);
}

}  // namespace

ParallelLayout parseParallelLayout(const std::string& text) {
    ParallelLayout layout;
    std::set<std::string> seen;
    std::stringstream parts(text);
    std::string part;
    while (std::getline(parts, part, ',')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos)
            meshError("expected NAME=DEGREE, got '" + part +
                      "' (e.g. dp_replicate=2,dp_shard=8,tp=4)");
        const std::string name = part.substr(0, eq);
        if (!seen.insert(name).second) meshError(name + " is given twice");
        const int64_t degree = parseDegree(name, part.substr(eq + 1));
        if (name == "dp_replicate")
            layout.dpReplicate = degree;
        else if (name == "dp_shard")
            layout.dpShard = degree;
        else if (name == "tp")
            layout.tp = degree;
        else if (name == "ep")
            layout.ep = degree;
        else
            meshError("unknown degree '" + name + "' (expected dp_replicate, dp_shard, tp, ep)");
    }
    if (seen.empty()) meshError("expected NAME=DEGREE pairs, e.g. dp_replicate=2,dp_shard=8,tp=4");
    if (layout.worldSize() > (1 << 20))
        meshError(layoutText(layout) + " is more than 1048576 ranks");
    return layout;
}

void checkLayout(const ParallelLayout& l, const ModelConfig& c, const std::string& source,
                 std::optional<int64_t> worldSize) {
    const auto fail = [&](const std::string& field, const std::string& rule) {
        throw ModelConfigError(source + ": " + field + ": " + rule);
    };
    const std::string tp = "tp=" + std::to_string(l.tp);
    // Column-wise q/k/v give each TP rank whole heads.
    if (c.numHeads % l.tp != 0)
        fail("num_attention_heads", std::to_string(c.numHeads) + " is not divisible by " + tp +
                                        " (tensor parallelism gives each rank whole heads)");
    if (c.family->attention == AttentionKind::GroupedQuery && c.numKeyValueHeads % l.tp != 0)
        fail("num_key_value_heads", std::to_string(c.numKeyValueHeads) + " is not divisible by " +
                                        tp + " (tensor parallelism gives each rank whole heads)");
    if (l.ep > 1) {
        if (c.family->moe == MoeKind::Dense)
            meshError("ep=" + std::to_string(l.ep) + " needs a mixture-of-experts model, " +
                      c.architecture + " has no experts");
        if (l.dpShard % l.ep != 0)
            meshError("ep=" + std::to_string(l.ep) + " does not divide dp_shard=" +
                      std::to_string(l.dpShard) + " (expert parallelism borrows FSDP ranks)");
        if (c.numExperts % l.ep != 0)
            fail(c.family->moe == MoeKind::Mixtral    ? "num_local_experts"
                 : c.family->moe == MoeKind::DeepSeek ? "n_routed_experts"
                                                      : "num_experts",
                 std::to_string(c.numExperts) + " is not divisible by ep=" + std::to_string(l.ep) +
                     " (each expert-parallel rank holds whole experts)");
    }
    if (worldSize && *worldSize != l.worldSize())
        meshError(layoutText(l) + " = " + std::to_string(l.worldSize()) + " ranks, not the " +
                  std::to_string(*worldSize) + " of --world (the mesh must cover the world)");
}

}  // namespace hsdp
