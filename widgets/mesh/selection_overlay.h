// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"

namespace hsdp {

// The rank sets a selection lights up on a mesh, each ascending. For the
// focus param: its owner coordinate's ranks, the ranks that run its
// Newton–Schulz (Plan::ranks' computed: in a gathered group one rank per
// owning replica, its shard-compute coordinate), and the replicate and shard
// groups through the first owner rank (mesh dims the param's group
// replicates over / shards over). For a group alone: its ranks. For
// a TP transition: its TP groups.
struct SelectionOverlay {
    std::vector<int> ownerRanks;
    std::vector<int> computeRanks;
    std::vector<int> replicateGroup;
    std::vector<int> shardGroup;
    std::vector<int> tpRanks;
    std::vector<int> groupRanks;   // a group selected without a param
    std::vector<int> pickedRanks;  // SelectionState::ranks
    const Mesh* mesh = nullptr;    // the mesh the selection lives on, if any

    bool isEmpty() const {
        return ownerRanks.empty() && computeRanks.empty() && replicateGroup.empty() &&
               shardGroup.empty() && tpRanks.empty() && groupRanks.empty() && pickedRanks.empty();
    }
};

SelectionOverlay selectionOverlay(const PlanResult& result, const SelectionState& selection);

}  // namespace hsdp
