// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "run/exec_env.h"
#include "runtime/world.h"
#include "step/entry_owners.h"

namespace hsdp {

// One rank's view of the verified optimizer step (docs/run.md §2).
struct RankOptimizerStep {
    RankContext& ctx;
    const ExecEnv& env;
    std::vector<ParamState>& state;  // indexed by param
};

// Builds the rank's local G and W of every parameter it holds (truth model).
std::vector<ParamState> initialState(const ExecEnv& env, int rank);

// Runs schedule entry `scheduleIndex` (group, batch) on this rank, following the
// plan's owners and shard_compute exactly: update, update broadcast, owners'
// apply, replica broadcast, then reports each batch parameter's final state.
void runScheduleEntry(RankOptimizerStep& rankStep, int scheduleIndex, const Group& group,
                      int batchIndex);

// Plain tensors (no_comm_params): every rank updates its own full copy; then
// the AdamW params (adamw_params): every rank its own shard, elementwise, in
// one span ("update", phase "local"), no communication.
void runLocalParams(RankOptimizerStep& rankStep);

// The mesh dims each phase of a schedule entry runs its collectives over
// (the fused gather, the update broadcast, the replica broadcast): the step
// below passes exactly these to the collectives, and a run connects only the
// process groups along them (run/used_groups.h).
std::vector<int> gatherMeshDims(const Group& group);
const std::vector<int>& updateBroadcastDims(const Group& group);
const std::vector<int>& replicaBroadcastDims(const Group& group);
// Whether the entry's gathered batch runs the all-to-all strategy in `mode`
// (reference mode runs the reference's all-gather whatever the plan says).
bool exchangesWithOwners(const Group& group, const Batch& batch, RunMode mode);
// Every mesh dim of group.mesh that schedule entry (group, batch) may run a
// collective over, one dim at a time (the all-to-all's flattened shard group
// is exchangeMeshDims).
std::vector<int> scheduleEntryMeshDims(const Group& group, const Batch& batch, RunMode mode);
// The mesh dims the entry's all-to-all exchange runs over as one group
// (empty when it has none).
std::vector<int> exchangeMeshDims(const Group& group, const Batch& batch, RunMode mode);

}  // namespace hsdp
