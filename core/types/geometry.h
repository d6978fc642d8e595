// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// A half-open run of global indices along one tensor dim.
struct IndexRange {
    int64_t begin = 0;
    int64_t end = 0;
    int64_t size() const { return end - begin; }
    bool operator==(const IndexRange&) const = default;
};

// The global indices a rank holds along one tensor dim, in local order.
// A plain shard is one range; a strided shard may be several.
using IndexSet = std::vector<IndexRange>;

int64_t indexCount(const IndexSet& set);
// Global index of local position `local` (0 <= local < indexCount(set)).
int64_t globalIndexAt(const IndexSet& set, int64_t local);
// Positions [from, to) of `set` in local order, as global ranges.
IndexSet sliceOf(const IndexSet& set, int64_t from, int64_t to);

// torch.chunk rule: chunk size ceil(len / n); chunk i (possibly empty).
IndexSet chunkOf(const IndexSet& piece, int64_t n, int64_t i);
// Strided shard: split into n*k chunks; coordinate i holds chunks i, i+n, ..., i+(k-1)n.
IndexSet stridedChunkOf(const IndexSet& piece, int64_t n, int64_t k, int64_t i);

// What one rank holds of a global tensor: per tensor dim, its global indices.
struct ShardLayout {
    std::vector<IndexSet> dims;
    std::vector<int64_t> localShape() const;
    int64_t localNumel() const;
};

int normalizeDim(int dim, int ndim);  // d < 0 -> d + ndim; no range check

// PyTorch DTensor semantics (docs/run.md §1): placements applied left to right,
// mesh dim 0 first, each splitting the current local piece. `coord` is the
// rank's coordinate on the mesh. Partial and Replicate keep the whole piece.
ShardLayout shardLayout(const std::vector<int64_t>& globalShape,
                        const std::vector<Placement>& placements,
                        const std::vector<int64_t>& meshShape, const Coord& coord);

// The layout after applying only the first `upToMeshDim` placements (the piece
// a rank holds before mesh dim `upToMeshDim` splits it).
ShardLayout partialLayout(const std::vector<int64_t>& globalShape,
                          const std::vector<Placement>& placements,
                          const std::vector<int64_t>& meshShape, const Coord& coord,
                          int upToMeshDim);

}  // namespace hsdp
