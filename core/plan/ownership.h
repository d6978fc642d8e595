// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "plan/owner_loads.h"
#include "plan/plan.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

struct OwnerItem {
    int param = 0;
    int64_t numel = 0;
};

// Result of the greedy assignment over `coordCount` coordinates numbered in
// lexicographic (row-major) order.
struct OwnerAssignment {
    std::vector<std::pair<int, int64_t>> owners;  // (param, coordinate index), assignment order
    OwnerLoads loads;                             // per coordinate index
};

// Reference build_owner_by_size: items sorted by (numel descending, param
// ascending), each to the least-loaded coordinate, ties to the smallest index
// (== lexicographically smallest coordinate). A min-heap keyed by (load,
// index) makes it O(items * log coords).
OwnerAssignment assignOwners(std::vector<OwnerItem> items, int64_t coordCount);
// The reference's literal scan over every coordinate, O(items * coords). Same
// result; kept to check the heap and to measure its speed-up.
OwnerAssignment assignOwnersByScan(std::vector<OwnerItem> items, int64_t coordCount);

int64_t coordinateCount(const std::vector<int64_t>& sizes);
// Row-major index of `coord` over `sizes`, and back.
int64_t coordinateIndex(const Coord& coord, const std::vector<int64_t>& sizes);
Coord coordinateAt(int64_t index, const std::vector<int64_t>& sizes);

// Fills a batch's owner, loads and (gathered batches) shard_compute. The
// batch's params, numel, replicateSizes and isShard must already be set;
// `shardSizes` are the group's shard mesh dim sizes (not reduced).
void assignBatchOwnership(Batch& batch, const std::vector<ParamSpec>& specs,
                          const std::vector<int64_t>& shardSizes);

}  // namespace hsdp
