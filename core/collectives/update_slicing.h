// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// Corrected: the rank's part of a full update, by its geometry (every index
// set, strided ones included). `update` has the global shape.
Tensor sliceUpdateCorrected(const Tensor& update, const std::vector<Placement>& placements,
                            const std::vector<int64_t>& meshShape, const Coord& coord);

// The reference's chunk_update_by_layout: for each shard axis in layout order
// (mesh size > 1), narrow the current piece along its tensor dim to
// [coord * (size // n), ... + size // n). Ignores uneven sizes and split factors.
Tensor sliceUpdateReference(const Tensor& update, const std::vector<std::pair<int, int>>& shardAxes,
                            const std::vector<int64_t>& meshShape, const Coord& coord);

// Per tensor dim, the [begin, end) the reference's narrows keep: the same
// walk on shapes only (no data), so every rank can predict any rank's slice.
std::vector<IndexRange> referenceSliceRanges(const std::vector<int64_t>& updateShape,
                                             const std::vector<std::pair<int, int>>& shardAxes,
                                             const std::vector<int64_t>& meshShape,
                                             const Coord& coord);

}  // namespace hsdp
