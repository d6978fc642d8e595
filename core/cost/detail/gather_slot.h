// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

// The slot one member fills in a fused all-gather over mesh dim m (tensor
// dim d) of the owned params, at mesh coordinate `coord`
// (collectives/fused_gather.cpp): each param reserves its widest member's
// piece, padded to the alignment. The same for every member of the line, so
// the schedule sizes the collective from it and the memory model the receive
// buffer (the slot times the line's size).
int64_t gatherSlotBytes(const Scenario& scenario, const std::vector<std::vector<int64_t>>& shapes,
                        int64_t alignmentBytes, const Mesh& mesh, const Coord& coord,
                        const std::vector<int>& owned, int m, int d);

}  // namespace hsdp
