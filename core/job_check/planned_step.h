// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/step_schedule.h"
#include "job_check/recorded_collective.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The plan's optimizer step as a job's Flight Recorder would hold it: per
// process group of the plan, each member's collectives in the order it makes
// them, and how each is recorded. Built from the schedule
// (cost/step_schedule.h), so what is expected is what the runner does.

// A communicator of the step: its members and each member's program. The
// runtime has one communicator per set of ranks (runtime/world.h: group
// ranks ascending), so the schedule's groups with the same members (lines
// of two meshes over the same ranks) are one process group here, as they are
// in a job's record.
struct PlannedGroup {
    std::vector<int64_t> ranks;  // global ranks, ascending
    // [member position]: indices into StepSchedule::collectives, in order.
    std::vector<std::vector<int>> programs;
};

struct PlannedStep {
    StepSchedule schedule;
    std::vector<PlannedGroup> groups;  // one per distinct member set of schedule.groups
};

// The step at `schedule`'s shapes (the scenario's real ones for a job).
PlannedStep plannedStep(StepSchedule schedule);

// What `rank` hands collective `c` (StepSchedule::collectives) of the
// schedule: its buffers as the runtime sizes them (runtime/trace.h's
// inputBytes, outputBytes, dtype) and the element types it carries (the
// batch's params', or the TP transition's tensor's).
CollectiveBuffers scheduledBuffers(const Scenario& scenario, const Plan& plan,
                                   const StepSchedule& schedule, int c, int rank);

// The params of the plan's schedule entry `scheduleIndex`, in batch order
// (none for an index outside the schedule).
std::vector<int> entryParams(const Plan& plan, int scheduleIndex);

// The params collective `index` of `schedule` carries: a gather's, its whole
// batch (one fused buffer); an update broadcast's, those its root computed
// (the root's owner class's params whose Newton–Schulz runs at the root's
// shard coordinate); a replica broadcast's, those its root's owner class
// owns; else its entry's params. Naming the batch for a broadcast blamed
// every param of it, 224 where rank 5's broadcast carries 28.
std::vector<int> carriedParams(const Scenario& scenario, const Plan& plan,
                               const StepSchedule& schedule, int index);

}  // namespace hsdp
