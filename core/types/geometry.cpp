// SPDX-License-Identifier: Apache-2.0
#include "types/geometry.h"

#include <algorithm>
#include <stdexcept>

namespace hsdp {

int64_t indexCount(const IndexSet& set) {
    int64_t n = 0;
    for (const auto& r : set) n += r.size();
    return n;
}

int64_t globalIndexAt(const IndexSet& set, int64_t local) {
    for (const auto& r : set) {
        if (local < r.size()) return r.begin + local;
        local -= r.size();
    }
    throw std::out_of_range("local index past the end of the shard");
}

IndexSet sliceOf(const IndexSet& set, int64_t from, int64_t to) {
    IndexSet out;
    int64_t pos = 0;
    for (const auto& r : set) {
        int64_t lo = std::max(from, pos), hi = std::min(to, pos + r.size());
        if (lo < hi) {
            IndexRange piece{r.begin + (lo - pos), r.begin + (hi - pos)};
            // Merge with the previous range when contiguous, so plain shards stay one range.
            if (!out.empty() && out.back().end == piece.begin)
                out.back().end = piece.end;
            else
                out.push_back(piece);
        }
        pos += r.size();
    }
    return out;
}

IndexSet chunkOf(const IndexSet& piece, int64_t n, int64_t i) {
    int64_t len = indexCount(piece);
    int64_t chunk = (len + n - 1) / n;
    int64_t from = std::min(len, i * chunk), to = std::min(len, (i + 1) * chunk);
    return sliceOf(piece, from, to);
}

IndexSet stridedChunkOf(const IndexSet& piece, int64_t n, int64_t k, int64_t i) {
    IndexSet out;
    for (int64_t j = 0; j < k; ++j) {
        for (const auto& r : chunkOf(piece, n * k, i + j * n)) {
            if (!out.empty() && out.back().end == r.begin)
                out.back().end = r.end;
            else
                out.push_back(r);
        }
    }
    return out;
}

std::vector<int64_t> ShardLayout::localShape() const {
    std::vector<int64_t> shape;
    for (const auto& d : dims) shape.push_back(indexCount(d));
    return shape;
}

int64_t ShardLayout::localNumel() const {
    int64_t n = 1;
    for (const auto& d : dims) n *= indexCount(d);
    return n;
}

int normalizeDim(int dim, int ndim) {
    return dim < 0 ? dim + ndim : dim;
}

ShardLayout partialLayout(const std::vector<int64_t>& globalShape,
                          const std::vector<Placement>& placements,
                          const std::vector<int64_t>& meshShape, const Coord& coord,
                          int upToMeshDim) {
    ShardLayout layout;
    int ndim = static_cast<int>(globalShape.size());
    for (auto s : globalShape) layout.dims.push_back({IndexRange{0, s}});
    for (int m = 0; m < upToMeshDim && m < static_cast<int>(placements.size()); ++m) {
        const Placement& p = placements[m];
        if (!p.isShard()) continue;
        int d = normalizeDim(p.dim, ndim);
        if (d < 0 || d >= ndim) throw std::invalid_argument("shard dim out of range");
        auto& set = layout.dims[d];
        set = p.kind == Placement::Kind::Shard
                  ? chunkOf(set, meshShape[m], coord[m])
                  : stridedChunkOf(set, meshShape[m], p.splitFactor, coord[m]);
    }
    return layout;
}

ShardLayout shardLayout(const std::vector<int64_t>& globalShape,
                        const std::vector<Placement>& placements,
                        const std::vector<int64_t>& meshShape, const Coord& coord) {
    return partialLayout(globalShape, placements, meshShape, coord,
                         static_cast<int>(placements.size()));
}

}  // namespace hsdp
