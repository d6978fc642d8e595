// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cost/step_schedule.h"
#include "runtime/trace.h"

namespace hsdp {

// The cost model's schedule held against a real run's trace, collective for
// collective: each rank's n-th scheduled collective is its n-th traced event
// (the trace's events of a rank in start order), and both must name the same
// op, group, phase, step, TP transition, mesh dim and wire bytes.

// One scheduled collective of one rank and the event the run traced for it.
struct TracedCollective {
    int rank = 0;
    int work = 0;        // index into StepSchedule::ranks[rank]
    int collective = 0;  // index into StepSchedule::collectives
    size_t event = 0;    // index into Trace::events
};

struct ScheduleTraceMatch {
    std::vector<TracedCollective> pairs;  // rank by rank, in order; only where both agree
    // The first disagreement of each rank that has one, e.g. "rank 3, collective
    // 5: predicted broadcast update-broadcast step 2 ..., ran ...", or the
    // counts when a rank made more or fewer collectives than scheduled.
    std::vector<std::string> mismatches;
    bool matches() const { return mismatches.empty(); }
};

// "all_gather gather step 0 tp -1 dim 1 [0,1] 512 B": what the comparison
// compares, the same words for a scheduled collective (as `rank` sees it)
// and a traced event.
std::string describeScheduled(const StepSchedule& schedule, const ScheduledCollective& c, int rank);
std::string describeTraced(const TraceEvent& event);

// Collectives only: the trace's compute spans (isCompute) are left to matchComputeToTrace.
ScheduleTraceMatch matchScheduleToTrace(const StepSchedule& schedule, const Trace& trace);

// The schedule's compute items held against the trace's compute spans the
// same way: each rank's n-th scheduled compute item (pack, unpack,
// newton_schulz, update) is its n-th traced span, and both must name the same
// kind, phase and step.
struct TracedCompute {
    int rank = 0;
    int work = 0;      // index into StepSchedule::ranks[rank]
    size_t event = 0;  // index into Trace::events
};

struct ComputeTraceMatch {
    std::vector<TracedCompute> pairs;     // rank by rank, in order; only where both agree
    std::vector<std::string> mismatches;  // the first disagreement of each rank that has one
    bool matches() const { return mismatches.empty(); }
};

ComputeTraceMatch matchComputeToTrace(const StepSchedule& schedule, const Trace& trace);

}  // namespace hsdp
