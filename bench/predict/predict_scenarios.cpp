// SPDX-License-Identifier: Apache-2.0
#include "predict_scenarios.h"

#include <algorithm>
#include <filesystem>

namespace hsdp::bench {

namespace {

struct Generated {
    int replicate = 1;
    int shard = 1;
    int params = 1;
    int rows = 64;
    int cols = 64;
    bool mixed = false;  // sizes cycle through rows x cols, rows/2 x cols, 1-D norms
    const char* dtype = "bf16";
};

std::string generatedJson(const Generated& g, const std::string& name) {
    std::string out = "{\"format\": \"hsdp-scenario/1\", \"name\": \"" + name +
                      "\", \"mesh\": {\"shape\": [" + std::to_string(g.replicate) + ", " +
                      std::to_string(g.shard) +
                      "], \"dim_names\": [\"dp_replicate\", \"dp_shard\"]}, \"params\": [";
    for (int i = 0; i < g.params; ++i) {
        int rows = g.rows, cols = g.cols;
        std::string shape = "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
        std::string shardDim = i % 3 == 2 ? "S(1)" : "S(0)";
        if (g.mixed && i % 4 == 1)
            shape = "[" + std::to_string(rows / 2) + ", " + std::to_string(cols) + "]";
        if (g.mixed && i % 4 == 3) {
            shape = "[" + std::to_string(cols) + "]";
            shardDim = "S(0)";
        }
        const std::string placements =
            g.shard > 1 ? "[\"R\", \"" + shardDim + "\"]" : "[\"R\", \"R\"]";
        out += std::string(i ? ", " : "") + "{\"name\": \"layers." + std::to_string(i) +
               ".weight\", \"shape\": " + shape + ", \"dtype\": \"" + g.dtype +
               "\", \"placements\": " + placements + "}";
    }
    return out + "]}\n";
}

}  // namespace

std::vector<PredictScenario> predictScenarios(const std::string& samplesDir) {
    std::vector<PredictScenario> out;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(samplesDir))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        out.push_back({std::filesystem::path(f).filename().string(), f, ""});
    const std::vector<Generated> generated = {
        {1, 2, 4, 256, 256, false, "f32"},   // 2 ranks, pure FSDP
        {2, 1, 6, 256, 128, false, "bf16"},  // 2 ranks, pure replication
        {2, 2, 8, 512, 128, true, "bf16"},
        {1, 4, 16, 64, 64, false, "bf16"},  // many small params
        {4, 1, 6, 128, 128, true, "f32"},
        {2, 4, 12, 256, 256, true, "bf16"},
        {1, 8, 8, 1024, 256, false, "bf16"},  // few large params
        {4, 2, 24, 128, 64, true, "f32"},
        {2, 8, 16, 512, 512, false, "bf16"},
        {4, 4, 32, 256, 128, true, "bf16"},
        {8, 2, 8, 256, 256, false, "f32"},
        {1, 16, 16, 256, 1024, true, "bf16"},
    };
    for (const auto& g : generated) {
        const std::string label = "gen " + std::to_string(g.replicate) + "x" +
                                  std::to_string(g.shard) + " " + std::to_string(g.params) + "p " +
                                  std::to_string(g.rows) + "x" + std::to_string(g.cols) +
                                  (g.mixed ? " mixed " : " ") + g.dtype;
        out.push_back({label, "", generatedJson(g, label)});
    }
    return out;
}

}  // namespace hsdp::bench
