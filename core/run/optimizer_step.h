#pragma once

#include <vector>

#include "run/exec_env.h"
#include "runtime/world.h"

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

// Plain tensors (no_comm_params): every rank updates its own full copy.
void runLocalParams(RankOptimizerStep& rankStep);

// The rank's coordinate over the group's replicate dims, reduced by the batch's sizes.
Coord reducedReplicateCoord(const Group& group, const Batch& batch, const Coord& coord);

}  // namespace hsdp
