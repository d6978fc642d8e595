// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/collective_cost.h"
#include "cost/plan_cost.h"
#include "plan/plan.h"
#include "runtime/trace.h"
#include "types/scenario.h"

namespace hsdp {

// A real run held against the cost model's prediction of it
// (docs/cost-model.md, "Checking a prediction against a run"): the plan
// costed on a cluster at the run's own (possibly shrunk) shapes, and each
// collective's measured time beside its predicted one.

// |predicted - measured| / measured; 0 when both are 0, +inf when only the
// measurement is.
double relativeError(double measured, double predicted);
// The median (the mean of the two middle values for an even count); 0 when empty.
double medianOf(std::vector<double> values);

// One collective of the run, timed on both sides.
struct CollectiveTiming {
    int collective = 0;  // index into the schedule's collectives
    CollectiveOp op = CollectiveOp::AllGather;
    int groupSize = 0;
    // From the last member's arrival to the last member's end, on the
    // trace's clock: the collective itself, not the members' waiting.
    double measuredSeconds = 0;
    double predictedSeconds = 0;  // its span in the predicted timeline
};

struct OpAccuracy {
    CollectiveOp op = CollectiveOp::AllGather;
    int collectives = 0;
    double medianAbsRelError = 0;
    double measuredSeconds = 0;  // summed over the op's collectives
    double predictedSeconds = 0;
};

// One compute kind (pack, unpack, newton_schulz, update) over every span the
// run traced for it: each span's measured duration beside the predicted
// duration of the schedule item it ran (workSeconds on the cluster's rates).
struct ComputeAccuracy {
    WorkKind kind = WorkKind::Pack;
    int spans = 0;
    double medianAbsRelError = 0;
    double measuredSeconds = 0;  // summed over the kind's spans (all ranks)
    double predictedSeconds = 0;
};

struct RunPrediction {
    PlanCost cost;                           // the prediction at the run's shapes
    double predictedSeconds = 0;             // cost.stepSeconds: the step's makespan
    double measuredSeconds = 0;              // the run's step makespan (0: not measured)
    std::optional<double> makespanRelError;  // when measured
    // Every collective the run made over more than one rank (a group of one
    // rank is a local copy, predicted 0), in schedule order.
    std::vector<CollectiveTiming> collectives;
    std::vector<OpAccuracy> ops;             // per op kind, in CollectiveOp order
    double collectiveMedianAbsRelError = 0;  // over `collectives`
    // The schedule disagreed with the trace (then `collectives` is empty).
    std::vector<std::string> mismatches;
    // Per compute kind that ran, in WorkKind order; empty when the trace has
    // no compute spans or they disagree with the schedule (computeMismatches).
    std::vector<ComputeAccuracy> compute;
    std::vector<std::string> computeMismatches;
};

// The run traced in `trace`, whose step took `measuredStepSeconds` (0: not
// measured), against the prediction on `cluster` at `paramShapes`/`tpShapes`,
// the shapes the run used.
RunPrediction predictRun(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                         const std::vector<std::vector<int64_t>>& paramShapes,
                         const std::vector<std::vector<int64_t>>& tpShapes, const Trace& trace,
                         double measuredStepSeconds);

}  // namespace hsdp
