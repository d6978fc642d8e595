// SPDX-License-Identifier: Apache-2.0
// Scenarios for hsdp-bench plan: Mixtral-like MoE layers (attention, a router
// gate, 32 experts of three weights) with every weight FSDP-sharded on the last
// mesh dim and replicated on the other two, written as files so the C++
// planner and the Python port of the seeds read exactly the same input.
#include "scale_scenario.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace hsdp::bench {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kExperts = 32;
constexpr int kParamsPerLayer = 5 + 3 * kExperts;  // wq, wk, wv, wo, gate + experts

Json param(const std::string& name, std::vector<int64_t> shape, const char* dtype,
           const Json& placements) {
    return {{"name", name}, {"shape", shape}, {"dtype", dtype}, {"placements", placements}};
}

Json layerParams() {
    const Json rows = {"R", "R", "S(0)"}, cols = {"R", "R", "S(1)"}, replicated = {"R", "R", "R"};
    const std::string p = "layers.{i}.";
    Json experts = Json::array({param(p + "moe.experts.{e}.w1", {1408, 2048}, "bf16", rows),
                                param(p + "moe.experts.{e}.w2", {2048, 1408}, "bf16", cols),
                                param(p + "moe.experts.{e}.w3", {1408, 2048}, "bf16", rows)});
    return Json::array({param(p + "attention.wq.weight", {2048, 2048}, "bf16", rows),
                        param(p + "attention.wk.weight", {512, 2048}, "bf16", rows),
                        param(p + "attention.wv.weight", {512, 2048}, "bf16", rows),
                        param(p + "attention.wo.weight", {2048, 2048}, "bf16", cols),
                        param(p + "moe.gate.weight", {kExperts, 2048}, "f32", replicated),
                        {{"repeat", kExperts}, {"var", "e"}, {"params", experts}}});
}

std::string thousands(int64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

int ScalePoint::params() const {
    return 1 + layers * kParamsPerLayer;
}

int64_t ScalePoint::ranks() const {
    int64_t n = 1;
    for (auto s : meshShape) n *= s;
    return n;
}

int64_t ScalePoint::replicateCoords() const {
    return meshShape.at(0) * meshShape.at(1);
}

std::string ScalePoint::label() const {
    return std::to_string((params() + 500) / 1000) + "k params x " + thousands(ranks()) + " ranks";
}

std::vector<ScalePoint> scalePoints() {
    return {{10, {8, 16, 8}}, guardPoint(), {160, {64, 64, 8}}, {400, {64, 128, 8}}};
}

ScalePoint guardPoint() {
    return {40, {32, 32, 8}};
}

ScalePoint pointOfRanks(int64_t ranks) {
    int64_t outer = 1, replicate = ranks / 8;
    while (outer < replicate) {
        outer *= 2;
        replicate /= 2;
    }
    if (outer > replicate) std::swap(outer, replicate);
    return {119, {outer, replicate, 8}};
}

std::string scenarioJson(const ScalePoint& point) {
    Json doc = {
        {"format", "hsdp-scenario/1"},
        {"name", "MoE, " + std::to_string(point.layers) + " layers of " + std::to_string(kExperts) +
                     " experts"},
        {"mesh",
         {{"shape", point.meshShape}, {"dim_names", {"dp_outer", "dp_replicate", "dp_shard"}}}},
        {"params",
         {param("tok_embeddings.weight", {32000, 2048}, "bf16", {"R", "R", "S(0)"}),
          {{"repeat", point.layers}, {"var", "i"}, {"params", layerParams()}}}}};
    return doc.dump(1) + "\n";
}

}  // namespace hsdp::bench
