// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "derived/plan/plan_selection.h"
#include "plan/plan.h"
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
// Only owned params count (Batch::owner): a frozen one loads no coordinate,
// so the mean is the loads' own, the one max/mean divides by.
struct CoordBalance {
    std::vector<Coord> coords;  // Batch::loads order (lexicographic)
    std::vector<int64_t> numel;
    int64_t total = 0;         // sum of the batch's owned params' numel
    int64_t largestParam = 0;  // numel of its largest owned param
    double mean = 0;           // total / coords
    double lowerBound = 0;
    std::optional<double> imbalance;  // loadImbalance(Batch::loads)
};

// Newton–Schulz work at every (replicate, shard) coordinate of a gathered
// batch, lexicographic by (replicate, shard), idle ones at zero: what
// Batch::shardCompute gives that replicate coordinate's rank at that shard
// coordinate, and those ranks (one per replica sub-group). Flat arrays, the
// coordinates by index arithmetic: at 131,072 ranks a batch has 131,072
// entries, and a vector of coordinates and ranks each took the studio 20 ms
// to build and as long to free on every plan.
class ComputeLoads {
public:
    ComputeLoads() = default;
    ComputeLoads(std::vector<int64_t> replicateSizes, std::vector<int64_t> shardSizes);

    size_t size() const { return numel_.size(); }
    bool empty() const { return numel_.empty(); }
    size_t shardsPerReplicate() const { return shards_; }
    size_t replicateIndex(size_t i) const { return i / shards_; }
    Coord replicateCoord(size_t i) const;
    Coord shardCoord(size_t i) const;
    int count(size_t i) const { return count_[i]; }      // params computed there
    int64_t numel(size_t i) const { return numel_[i]; }  // global numel: full matrices
    const std::vector<int64_t>& numels() const { return numel_; }
    std::span<const int> ranks(size_t i) const;  // ascending
    std::vector<int> rankList(size_t i) const;
    // The entry whose ranks are exactly `ranks`, or -1.
    int entryOfRanks(const std::vector<int>& ranks) const;

    void add(size_t i, int64_t numel);
    // ranks[k] computes at entry entries[k]: every rank of the group once.
    void setRanks(const std::vector<int>& ranks, const std::vector<size_t>& entries);

private:
    std::vector<int64_t> replicateSizes_, shardSizes_;
    size_t shards_ = 1;
    std::vector<int> count_;
    std::vector<int64_t> numel_;
    std::vector<size_t> rankStart_;  // size() + 1 offsets into ranks_
    std::vector<int> ranks_;
};

CoordBalance coordBalance(const Scenario& scenario, const Batch& batch);
// The group's batches summed per replicate coordinate, as the owner-imbalance
// rule judges a group over its batches (ownerImbalances, plan/load_imbalance.h):
// loads, total and largest param of every batch, max/mean of the sums.
CoordBalance coordBalance(const Scenario& scenario, const Group& group);
// Empty for a batch that is not gathered.
ComputeLoads computeLoads(const Scenario& scenario, const Group& group, const Batch& batch,
                          std::optional<int64_t> replicaCount);
// The group's gathered batches summed per (replicate, shard) coordinate: the
// Newton–Schulz work each rank does over the group. Empty when none is gathered.
ComputeLoads computeLoads(const Scenario& scenario, const Group& group,
                          std::optional<int64_t> replicaCount);
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
// The batch that shows the plan's worst owner imbalance (worstOwnerImbalance,
// plan/load_imbalance.h: only the batches and groups the owner-imbalance rule
// judges): that batch, for a group over its batches the group's first (its
// largest); the plan's first batch when nothing is judged, none without batches.
BatchRef worstBatch(const Plan& plan);
// The same from the worst place already found (PlanIndex::worstGroup and worstBatch).
BatchRef worstBatch(const Plan& plan, int worstGroup, int worstBatch);
// The batch a balance chart shows for `selection`: the selected group/batch,
// else the focus param's batch, else for a group alone the batch that shows
// its worst owner imbalance, else `worst` (worstBatch(plan), known ahead).
BatchRef balanceBatch(const Plan& plan, const SelectionState& selection, BatchRef worst);
const Batch* batchAt(const Plan& plan, BatchRef ref);

}  // namespace hsdp
