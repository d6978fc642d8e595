// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hsdp::bench {

// One world of hsdp-bench scale: a few small layers on a mesh of growing size,
// so what grows is the number of ranks and process groups, not the bytes.
struct ScaleWorld {
    std::string label;          // "2x64 HSDP"
    std::vector<int64_t> mesh;  // [replicate, shard] or [replicate, shard, tp]
    int64_t ranks() const;
    std::string scenarioJson() const;  // an hsdp-scenario/1 file
};

// 2-D HSDP meshes 2x8 .. 2x64, then 3-D HSDP + TP meshes 4x8x8 .. 8x16x16,
// ascending in ranks; only those of at most `maxRanks` ranks.
std::vector<ScaleWorld> scaleWorlds(int64_t maxRanks);

}  // namespace hsdp::bench
