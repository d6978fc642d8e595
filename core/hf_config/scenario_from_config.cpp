// SPDX-License-Identifier: Apache-2.0
#include "hf_config/scenario_from_config.h"

#include "hf_config/detail/param_tree.h"
#include "hf_config/param_role.h"
#include "hf_config/placement_rules.h"
#include "hf_config/tp_transitions.h"

namespace hsdp {

namespace {

Json meshJson(const LayoutMesh& mesh) {
    return {{"shape", mesh.shape}, {"dim_names", mesh.dimNames}};
}

std::string layoutText(const ParallelLayout& l) {
    std::string text = "dp_replicate=" + std::to_string(l.dpReplicate) +
                       ",dp_shard=" + std::to_string(l.dpShard) + ",tp=" + std::to_string(l.tp);
    if (l.ep > 1) text += ",ep=" + std::to_string(l.ep);
    return text;
}

Json paramJson(const ParamNode& node, const ConfigScenarioRequest& r, bool twoMeshes) {
    if (node.repeat > 0) {
        Json children = Json::array();
        for (const ParamNode& child : node.children)
            children.push_back(paramJson(child, r, twoMeshes));
        return {{"repeat", node.repeat}, {"var", node.var}, {"params", std::move(children)}};
    }
    Json p = {{"name", node.name}};
    p["shape"] = node.shape;
    p["dtype"] = std::string(dtypeName(r.dtype));
    const auto placements = placementsFor(node.role, r.layout);
    if (twoMeshes) p["mesh"] = onExpertMesh(node.role) ? "experts" : "dense";
    if (placements)
        p["placements"] = *placements;
    else
        p["requires_grad"] = false;  // a buffer: plain tensor, no optimizer step
    if (placements && !r.allMuon && adamwByDefault(node.name, node.shape.size()))
        p["optimizer"] = "adamw";
    return p;
}

std::string description(const ConfigScenarioRequest& r) {
    const ModelConfig& c = r.config;
    std::string text = "Generated from " + r.configSource + " (" + c.architecture + "): hidden " +
                       std::to_string(c.hiddenSize) + ", " + std::to_string(c.numLayers) +
                       " layers, " + std::to_string(c.numHeads) + " heads, vocabulary " +
                       std::to_string(c.vocabSize);
    if (c.numExperts > 0) text += ", " + std::to_string(c.numExperts) + " routed experts";
    text += ". Layout " + layoutText(r.layout);
    // Without TP there is no TP plan to explain (a tp=1 scenario's report
    // described column-wise and _StridedShard placements it does not have).
    if (r.layout.tp > 1)
        text +=
            " as FSDP2 + torchtitan's TP plan place it: q/k/v, gate/up, lm_head column-wise "
            "(Shard(0) on tp), o_proj and down_proj row-wise (Shard(1)), embeddings split by "
            "vocabulary rows (Shard(0)), norms and routers replicated over tp; FSDP shards dim 0 "
            "over dp_shard, strided (_StridedShard, split factor tp) where TP split dim 0 already.";
    else
        text += " as FSDP2 places it: dim 0 sharded over dp_shard, no tensor parallelism.";
    if (r.layout.ep > 1)
        text +=
            " Stacked experts [E, out, in] live on the expert mesh: Shard(0) over ep, "
            "Shard(1) over efsdp (dp_shard / ep).";
    text += optimizerText(r.allMuon);
    return text;
}

}  // namespace

Json scenarioFromModelConfig(const ConfigScenarioRequest& r) {
    const bool twoMeshes = r.layout.ep > 1;
    Json doc = {{"format", "hsdp-scenario/1"}};
    doc["name"] = r.name.empty() ? r.config.architecture + ", " + layoutText(r.layout) : r.name;
    doc["description"] = description(r);
    if (twoMeshes)
        doc["meshes"] = {{"dense", meshJson(denseMesh(r.layout))},
                         {"experts", meshJson(expertMesh(r.layout))}};
    else
        doc["mesh"] = meshJson(denseMesh(r.layout));
    Json params = Json::array();
    for (const ParamNode& node : buildParamTree(r.config, twoMeshes))
        params.push_back(paramJson(node, r, twoMeshes));
    doc["params"] = std::move(params);
    if (r.tpTransitions && r.layout.tp > 1)
        doc["tp_transitions"] = torchtitanTpTransitions(r.config.hiddenSize, r.layout, r.dtype,
                                                        twoMeshes ? "dense" : "");
    return doc;
}

}  // namespace hsdp
