// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "types/mesh.h"

namespace hsdp {

// The fused broadcasts one rank joins in a hierarchical broadcast
// (collectives/replicate_broadcast.cpp: hierarchicalBroadcast), for the
// schedule. Along broadcast dim dims[i] (innermost first) a rank broadcasts
// the items rooted on its line, those whose root shares its coordinates on
// the outer dims dims[0..i), one fused broadcast per root coordinate along
// dims[i]. Which items those are depends on the rank only through its outer
// coordinates, so the items are grouped once, here, and each rank looks its
// groups up: a replica broadcast has every param of a batch (thousands) and
// is seen by every rank of the mesh (thousands).
class BroadcastGroups {
public:
    struct RootGroup {
        int64_t root = 0;        // the root's coordinate along dims[i]
        std::vector<int> items;  // indices into the roots given, in their order
    };

    // roots[k]: item k's root, one coordinate per broadcast dim.
    BroadcastGroups(const std::vector<Coord>& roots, const std::vector<int>& dims,
                    const std::vector<int64_t>& meshShape);

    // The groups along dims[i] for the rank at mesh coordinate `coord`, by
    // ascending root; nullptr when no item is rooted on its line.
    const std::vector<RootGroup>* along(int i, const Coord& coord) const;

private:
    // Row-major index of the outer coordinates c(0) .. c(i-1) (c(j) along
    // dims[j]); nullopt when one lies outside the mesh, where no rank is.
    template <class CoordAlong>
    std::optional<int64_t> outerIndex(int i, CoordAlong c) const;

    std::vector<int> dims_;
    std::vector<int64_t> sizes_;  // the mesh's size along each of dims_
    // [i]: outer index -> the groups along dims_[i] of the ranks there
    std::vector<std::unordered_map<int64_t, std::vector<RootGroup>>> byOuter_;
};

}  // namespace hsdp
