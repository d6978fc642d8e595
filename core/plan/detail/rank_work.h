// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The work each rank of the world does in the optimizer step, as the run does
// it (run/optimizer_step.cpp), filled into RankOwnership's three figures:
//  - held: elements of its local shard of every param on a mesh it is on
//    (DTensor layout, uneven shards as torch.chunk cuts them), plus every
//    plain (no-comm) param whole; rejected params are never run, so not held.
//  - gathered: in gathered batches, for every param its replicate coordinate
//    owns, the elements the fused all-gather brings it (full numel minus its
//    own shard).
//  - computed: Newton–Schulz elements it runs itself. Gathered batch: the full
//    param, only on the rank at the param's shard-compute coordinate of each
//    owning replica's shard group. Other batches: every owning rank on its
//    local piece. Trainable plain params: every rank, whole.
// `ranks` must hold every rank of the world (rankOwnership). Cost: per group,
// (distinct shape/placement pairs x shard coordinates) + params + mesh size.
void addRankWork(std::vector<RankOwnership>& ranks, const std::vector<Group>& groups,
                 const std::vector<int>& noCommParams, const std::vector<ParamSpec>& specs,
                 std::optional<int64_t> replicaCount);

// The AdamW params (plan.adamwParams): every rank of a param's mesh holds its
// local shard (a plain tensor: every rank, whole) and, when it is trainable,
// updates it itself: RankOwnership::adamw and adamwNumel, and heldNumel.
// Cost: per distinct (mesh, shape, placements), one layout per mesh rank.
void addAdamWWork(std::vector<RankOwnership>& ranks, const std::vector<int>& adamwParams,
                  const Scenario& scenario);

}  // namespace hsdp
