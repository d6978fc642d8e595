// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <memory>
#include <stop_token>

#include "accuracy/run_prediction.h"
#include "cluster/cluster.h"
#include "cost/plan_cost.h"
#include "verify/run_result.h"

namespace hsdp {

class TraceTimeline;
struct PlanResult;
struct RunData;

// A plan costed on the cluster the user chose (docs/cost-model.md), built
// off the GUI thread with the plan and shared read-only. `timeline` holds
// the predicted step as a trace (cost/predicted_trace.h), which the trace
// canvas draws as it draws a run's.
// At most this many ranks' rows in a predicted timeline (predictedTraceRanks:
// evenly spaced and the one that ends last); the cost covers every rank.
constexpr int kPredictedTraceRanks = 64;

struct PlanPrediction {
    std::shared_ptr<const Cluster> cluster;  // as chosen (costPlan grows it to the world)
    std::shared_ptr<const PlanCost> cost;    // null when costing failed: see `error`
    std::shared_ptr<const RunResult> timeline;
    std::shared_ptr<const TraceTimeline> rows;  // `timeline` indexed for the canvas
    QString error;
    // Where the plan meets the cluster: the out-of-memory error when a rank's
    // predicted peak is over the device's memory (cost/memory_fit.h), listed
    // first by the diagnostics view and the status bar.
    std::vector<Diagnostic> diagnostics;
};

// Every diagnostic of the plan as the studio and the report list it: the
// prediction's (memory on the cluster) first, then the plan's own.
std::vector<Diagnostic> planDiagnosticsWithPrediction(const PlanResult& plan);
// How many of those have `severity`.
int diagnosticCount(const PlanResult& plan, Severity severity);

// `plan` costed on `cluster` at the scenario's real shapes; null without a
// cluster. Once `stop` is requested it soon returns a prediction whose error
// says it stopped.
std::shared_ptr<const PlanPrediction> predictPlan(const PlanResult& plan,
                                                  std::shared_ptr<const Cluster> cluster,
                                                  std::stop_token stop = {});

// A finished run held against the prediction at its own (shrunk) shapes on
// `cluster`, with that prediction as a trace.
struct RunPredictionData {
    std::shared_ptr<const Cluster> cluster;
    std::shared_ptr<const RunPrediction> prediction;
    std::shared_ptr<const RunResult> timeline;
    // Both traces indexed for the canvas, off the GUI thread: the prediction's
    // and the measured run's.
    std::shared_ptr<const TraceTimeline> rows;
    std::shared_ptr<const TraceTimeline> measuredRows;
};

// Null without a cluster or a measured step.
std::shared_ptr<const RunPredictionData> predictRunData(const RunData& run,
                                                        std::shared_ptr<const Cluster> cluster);

// "4× h100-dgx": the nodes the plan's world takes, and the cluster's name.
QString clusterText(const PlanCost& cost);
// The status bar's words: "peak 61.3 GiB (rank 12) · predicted step 41.2 ms
// on 4× h100-dgx" (the peak first, as the status bar is cut from the right),
// without the peak when the step does not fit (outOfMemoryStatusText says
// it), or why there is no prediction; "" without a cluster.
QString predictionStatusText(const PlanPrediction* prediction);
// "out of memory: peak 154.3 GiB (rank 0), 74.6 GiB over the device's
// 79.6 GiB", the first words of the status bar when the predicted step does
// not fit; "" when it fits or there is no prediction.
QString outOfMemoryStatusText(const PlanPrediction* prediction);
// The same words for a cost: every figure of a step that does not fit says
// so beside it (the step time, the memory chart, the report).
QString outOfMemoryText(const PlanCost& cost);

}  // namespace hsdp
