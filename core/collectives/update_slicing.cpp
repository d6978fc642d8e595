// SPDX-License-Identifier: Apache-2.0
#include "collectives/update_slicing.h"

#include "types/geometry.h"
#include "verify/truth.h"

namespace hsdp {

Tensor sliceUpdateCorrected(const Tensor& update, const std::vector<Placement>& placements,
                            const std::vector<int64_t>& meshShape, const Coord& coord) {
    return shardOf(update, shardLayout(update.shape, placements, meshShape, coord));
}

std::vector<IndexRange> referenceSliceRanges(const std::vector<int64_t>& updateShape,
                                             const std::vector<std::pair<int, int>>& shardAxes,
                                             const std::vector<int64_t>& meshShape,
                                             const Coord& coord) {
    std::vector<IndexRange> ranges;
    for (auto s : updateShape) ranges.push_back({0, s});
    for (auto [m, d] : shardAxes) {
        const int64_t n = meshShape[size_t(m)];
        if (n <= 1) continue;
        auto& r = ranges[size_t(d)];
        const int64_t chunk = r.size() / n;  // size // n, as the reference does
        const int64_t begin = r.begin + coord[size_t(m)] * chunk;
        r = {begin, begin + chunk};
    }
    return ranges;
}

Tensor sliceUpdateReference(const Tensor& update, const std::vector<std::pair<int, int>>& shardAxes,
                            const std::vector<int64_t>& meshShape, const Coord& coord) {
    auto ranges = referenceSliceRanges(update.shape, shardAxes, meshShape, coord);
    Positions pos;
    for (const auto& r : ranges) {
        std::vector<int64_t> p;
        for (int64_t i = r.begin; i < r.end; ++i) p.push_back(i);
        pos.push_back(std::move(p));
    }
    return extract(update, pos);
}

}  // namespace hsdp
