// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"
#include "shared/plan_selection.h"
#include "types/scenario.h"

namespace hsdp {

// A batch by its position: Plan::groups[group].batches[batch]; -1: none.
struct BatchRef {
    int group = -1;
    int batch = -1;

    bool isValid() const { return group >= 0 && batch >= 0; }
    bool operator==(const BatchRef&) const = default;
};

// One batch's owner loads as the plan states them (Batch::loads), with the
// numbers a balance chart draws against them. `lowerBound` is what no
// assignment of whole params can beat: max(largest param, total / coords).
struct CoordBalance {
    std::vector<Coord> coords;  // Batch::loads order (lexicographic)
    std::vector<int64_t> numel;
    int64_t total = 0;         // sum of the batch's param numel
    int64_t largestParam = 0;  // numel of its largest param
    double mean = 0;           // total / coords
    double lowerBound = 0;
    std::optional<double> imbalance;  // loadImbalance(Batch::loads)
};

// Newton–Schulz work at one (replicate, shard) coordinate of a gathered
// batch: what Batch::shardCompute gives that replicate coordinate's rank at
// that shard coordinate, and those ranks (one per replica sub-group).
struct ComputeLoad {
    Coord replicateCoord;
    Coord shardCoord;
    std::vector<int> ranks;  // ascending
    int count = 0;
    int64_t numel = 0;  // global numel: the full matrix is computed
};

CoordBalance coordBalance(const Scenario& scenario, const Batch& batch);
// Every replicate coordinate times every shard coordinate, idle ones at zero,
// lexicographic by (replicate, shard); empty for a batch that is not gathered.
std::vector<ComputeLoad> computeLoads(const Scenario& scenario, const Group& group,
                                      const Batch& batch, std::optional<int64_t> replicaCount);
// The global ranks of `group` whose replicate coordinate, reduced by the
// replica count, is `coord`: the ranks that own what that coordinate owns.
std::vector<int> ranksAtCoordinate(const Group& group, const Coord& coord,
                                   std::optional<int64_t> replicaCount);
// The replicate coordinate of `rank` in `group` (reduced by the replica
// count), or none for a rank outside the group.
std::optional<Coord> replicateCoordinateOf(const Group& group, int rank,
                                           std::optional<int64_t> replicaCount);
// The coordinate of `balance` whose ranks are exactly `ranks`, or -1: found
// from the first rank's coordinate, so one pass over the group's ranks.
int coordinateOfRanks(const Group& group, const CoordBalance& balance,
                      const std::vector<int>& ranks, std::optional<int64_t> replicaCount);
// The batch with the largest imbalance (the first on ties), or none.
BatchRef worstBatch(const Plan& plan);
// The batch a balance chart shows for `selection`: the selected group/batch,
// else the focus param's batch, else the worst one.
BatchRef balanceBatch(const Plan& plan, const SelectionState& selection);
const Batch* batchAt(const Plan& plan, BatchRef ref);

}  // namespace hsdp
