// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "cost/step_schedule.h"
#include "cost/step_simulation.h"

namespace hsdp {

// What both event passes (simulateStep, simulateOnSharedCores) record of each
// collective's members as they arrive, and what they derive from it when the
// pass is over: the ranks' totals and the critical path.
class CollectiveArrivals {
public:
    // Each collective's list is reserved to its group's size: it fills to
    // exactly that, and growing 39,153 lists member by member (8,192 ranks)
    // cost a fifth of the pass.
    explicit CollectiveArrivals(const StepSchedule& schedule);

    // `rank` reached collective c at its item `at`; `last`: it is the member
    // the collective waited for so far.
    void arrive(size_t c, int rank, size_t at, bool last) {
        members_[c].push_back({rank, at});
        if (last) lastArriver_[c] = rank;
    }
    // (rank, item) of the members arrived so far, in arrival order.
    const std::vector<std::pair<int, size_t>>& members(size_t c) const { return members_[c]; }
    int lastArriver(size_t c) const { return lastArriver_[c]; }
    // The item at which `rank` reached collective c (0 if it never did).
    size_t positionOf(size_t c, int rank) const;

private:
    std::vector<std::vector<std::pair<int, size_t>>> members_;
    std::vector<int> lastArriver_;
};

// After a pass filled `sim`'s spans: each rank's finish, busy and waiting
// time, the makespan and its rank, and the critical path (from the last
// item of the rank that ends last, back to the start: a compute item
// follows its rank's previous item, a collective the member that arrived last).
void concludeSimulation(const StepSchedule& schedule, const CollectiveArrivals& arrivals,
                        StepSimulation& sim);

}  // namespace hsdp
