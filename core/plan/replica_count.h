// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/diagnostics.h"
#include "plan/plan.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

// docs/plan.md §2, auto deduction only: nullopt when no replicate dim needs a split
// (every size <= devices_per_node), else the minimum dedup over positions.
struct ReplicaDeduction {
    bool splitNeeded = false;
    std::optional<int64_t> minimumDedup;  // over every position with a size > 1
};
ReplicaDeduction deduceReplicaCount(const std::vector<Group>& groups, int64_t devicesPerNode);

// docs/plan.md §2: the count the optimizer uses. Reports replica-count-ignored
// (auto mode discarding the user's count) and replica-count-indivisible (one
// error listing the params of every offending group).
std::optional<int64_t> effectiveReplicaCount(const std::vector<Group>& groups,
                                             const PlanOptions& options, DiagnosticSink& sink);

// A group's replicate sizes, each min(s, c) under a count c.
std::vector<int64_t> replicateSizes(const Group& group, std::optional<int64_t> count);
// A rank's replicate coordinate from its mesh coordinate: coord % c per replicate dim.
Coord replicateCoordinate(const Coord& meshCoord, const std::vector<int>& replicateMeshDims,
                          std::optional<int64_t> count);
// coordinateIndex(replicateCoordinate(meshCoord, ...), sizes) without the
// coordinate: per rank of a 131,072-rank group, the allocation was the cost.
int64_t replicateIndex(const Coord& meshCoord, const std::vector<int>& replicateMeshDims,
                       const std::vector<int64_t>& sizes, std::optional<int64_t> count);

}  // namespace hsdp
