// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "cost/plan_cost.h"
#include "plan/plan.h"
#include "runtime/trace.h"
#include "types/scenario.h"

namespace hsdp {

// A predicted step as a trace: every rank's work items at their predicted
// start and end, so that whatever draws a measured run's trace draws the
// prediction the same way (same rows, colours, selection). A collective is
// one event per member sharing its seq (the schedule's collective index),
// with the bytes the runner's trace would count; a compute item is an event
// of its own on its rank (op "pack" | "unpack" | "newton_schulz" | "update",
// a negative seq, no bytes: isCompute()), as a run's trace records them. Labels carry the phase,
// the schedule entry, its plan group, batch and params (a TP transition's number for phase tp).
// Events are ordered by rank, then start, like a recorded trace.
Trace predictedTrace(const Plan& plan, const PlanCost& cost);

// The label the runner gives the work of schedule entry `index` (or of TP
// transition `index` in phase tp; -1: the params held whole).
CollectiveLabel stepLabel(const Plan& plan, StepPhase phase, int index);
// The trace event of collective `c` of `schedule` as `rank` records it: its
// seq `c`, op, group, wire bytes and label; no times.
TraceEvent collectiveEvent(const Plan& plan, const StepSchedule& schedule, int c, int rank);
// The same, only the events of `ranks` (ascending): each event copies its
// group's ranks and its batch's params, so at 131,072 ranks every rank's
// events would take tens of GiB.
Trace predictedTrace(const Plan& plan, const PlanCost& cost, const std::vector<int>& ranks);

// The ranks a predicted trace of `cost` keeps when the world is larger than
// `limit`: `limit` - 1 evenly spaced ranks (rank 0 first) and the one that
// ends last (the makespan's), ascending; every rank otherwise.
std::vector<int> predictedTraceRanks(const PlanCost& cost, int limit);

}  // namespace hsdp
