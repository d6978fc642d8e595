// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hsdp::bench {

// One point of the planning scale: a MoE model of `layers` layers (32 experts
// each) on a 3-D mesh [outer, replicate, 8]. Both outer dims replicate, so the
// plan has outer x replicate replicate coordinates.
struct ScalePoint {
    int layers = 0;
    std::vector<int64_t> meshShape;

    int params() const;
    int64_t ranks() const;
    int64_t replicateCoords() const;
    std::string label() const;  // "4k params x 8,192 ranks"
};

// (1k, 1,024), (4k, 8,192), (16k, 32,768) and (40k, 65,536) params x ranks.
std::vector<ScalePoint> scalePoints();
// 4,041 params (40 MoE layers of 32 experts) on [32, 32, 8]: 1,024 replicate coordinates.
ScalePoint guardPoint();

// 12,020 params (119 MoE layers) on [a, b, 8] with a x b x 8 = `ranks` (a
// power of two >= 64), a <= b: at 131,072 ranks [128, 128, 8].
ScalePoint pointOfRanks(int64_t ranks);

// The point as an hsdp-scenario/1 file (repeat blocks, row-major ranks).
std::string scenarioJson(const ScalePoint& point);

}  // namespace hsdp::bench
