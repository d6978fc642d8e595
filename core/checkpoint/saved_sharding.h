// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checkpoint/checkpoint.h"
#include "types/placement.h"

namespace hsdp {

// The DTensor placements, one per dim of a mesh of `meshShape` (ranks 0 …
// n-1 in row-major order), under which a tensor of `shape` is laid out as
// its saved pieces say: every rank holds one contiguous box (or nothing),
// the distinct non-empty boxes of all ranks are exactly the distinct pieces,
// and each piece's writer holds that piece. (PyTorch's checkpoint writer
// keeps one copy of a replicated piece, on any one of its holders, so a
// piece may be missing from other holders' files.) Tried: Replicate,
// Shard(d) and, where later mesh dims already split dim d by k,
// _StridedShard(d, sf=k) on each mesh dim; `preferred` first (the layout
// the name rules expect), which breaks ties. nullopt: none fits.
std::optional<std::vector<Placement>> fitSavedPlacements(const std::vector<int64_t>& shape,
                                                         const std::vector<TensorPiece>& pieces,
                                                         const std::vector<int64_t>& meshShape,
                                                         const std::vector<Placement>& preferred);

}  // namespace hsdp
