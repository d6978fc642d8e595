// SPDX-License-Identifier: Apache-2.0
#include "cost/detail/gather_slot.h"

#include <algorithm>

#include "collectives/fused_gather.h"
#include "tensor/packing.h"
#include "types/geometry.h"

namespace hsdp {

int64_t gatherSlotBytes(const Scenario& scenario, const std::vector<std::vector<int64_t>>& shapes,
                        int64_t alignmentBytes, const Mesh& mesh, const Coord& coord,
                        const std::vector<int>& owned, int m, int d) {
    int64_t slot = 0;
    for (int p : owned) {
        const auto& spec = scenario.params[size_t(p)];
        const auto& shape = shapes[size_t(p)];
        const int es = dtypeSize(spec.dtype);
        const auto piece =
            partialLayout(shape, *spec.placements, mesh.shape, coord, m + 1).localShape();
        int64_t rest = 1;  // the piece's elements per index along d
        for (size_t k = 0; k < piece.size(); ++k)
            if (int(k) != d) rest *= piece[k];
        const AxisRows rows = gatherAxisRows(shape, *spec.placements, mesh.shape, coord, m, d);
        int64_t widest = 0;
        for (const auto& member : rows.members)
            widest =
                std::max(widest, paddedElements(indexCount(member) * rest, alignmentBytes, es));
        slot += widest * es;
    }
    return slot;
}

}  // namespace hsdp
