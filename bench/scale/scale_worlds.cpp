// SPDX-License-Identifier: Apache-2.0
// The worlds of hsdp-bench scale. Their layers are those of the scale
// scenarios the tests run (tests/data/scale): sharded along every mesh dim
// but the replicate one, so every kind of process group is connected.
#include "scale_worlds.h"

#include <nlohmann/json.hpp>

namespace hsdp::bench {

namespace {

using Json = nlohmann::ordered_json;

Json param(const char* name, std::vector<int64_t> shape, const char* dtype,
           std::vector<const char*> placements) {
    return {{"name", name}, {"shape", shape}, {"dtype", dtype}, {"placements", placements}};
}

Json hsdpParams() {
    return Json::array({param("embed.weight", {256, 16}, "bf16", {"R", "S(0)"}),
                        param("block.attn.weight", {128, 64}, "f32", {"R", "S(0)"}),
                        param("block.mlp.down", {16, 128}, "f32", {"R", "S(1)"}),
                        param("block.norm.weight", {16}, "f32", {"R", "R"})});
}

Json tpParams() {
    return Json::array({param("wq.weight", {256, 64}, "bf16", {"R", "S(1)", "S(0)"}),
                        param("wo.weight", {64, 256}, "bf16", {"R", "S(0)", "S(1)"}),
                        param("norm.weight", {64}, "f32", {"R", "R", "R"})});
}

// A partial TP output reduced to a replicated one: the TP groups connect too.
Json tpTransitions() {
    return Json::array({{{"name", "wo.out"},
                         {"shape", {16, 64}},
                         {"dtype", "f32"},
                         {"src", {"R", "R", "P(sum)"}},
                         {"dst", {"R", "R", "R"}}}});
}

}  // namespace

int64_t ScaleWorld::ranks() const {
    int64_t n = 1;
    for (auto d : mesh) n *= d;
    return n;
}

std::string ScaleWorld::scenarioJson() const {
    const bool tp = mesh.size() == 3;
    Json dims = tp ? Json::array({"dp_replicate", "dp_shard", "tp"})
                   : Json::array({"dp_replicate", "dp_shard"});
    Json j = {{"format", "hsdp-scenario/1"},
              {"name", label},
              {"mesh", {{"shape", mesh}, {"dim_names", dims}}},
              {"params", tp ? tpParams() : hsdpParams()}};
    if (tp) j["tp_transitions"] = tpTransitions();
    return j.dump(2) + "\n";
}

std::vector<ScaleWorld> scaleWorlds(int64_t maxRanks) {
    const std::vector<ScaleWorld> all = {
        {"2x8 HSDP", {2, 8}},
        {"2x16 HSDP", {2, 16}},
        {"2x32 HSDP", {2, 32}},
        {"2x64 HSDP", {2, 64}},
        {"4x8x8 HSDP + TP", {4, 8, 8}},
        {"4x16x8 HSDP + TP", {4, 16, 8}},
        {"4x16x16 HSDP + TP", {4, 16, 16}},
        {"8x16x16 HSDP + TP", {8, 16, 16}},
    };
    std::vector<ScaleWorld> out;
    for (const auto& w : all)
        if (w.ranks() <= maxRanks) out.push_back(w);
    return out;
}

}  // namespace hsdp::bench
