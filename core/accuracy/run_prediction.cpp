// SPDX-License-Identifier: Apache-2.0
#include "accuracy/run_prediction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "accuracy/trace_match.h"

namespace hsdp {

double relativeError(double measured, double predicted) {
    if (measured == 0) return predicted == 0 ? 0 : std::numeric_limits<double>::infinity();
    return std::abs(predicted - measured) / std::abs(measured);
}

double medianOf(std::vector<double> values) {
    if (values.empty()) return 0;
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + long(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2) return upper;
    return (upper + *std::max_element(values.begin(), values.begin() + long(mid))) / 2;
}

namespace {

// Measured against predicted, per compute kind, over the trace's compute
// spans matched to the schedule's compute items.
void compareCompute(const Trace& trace, RunPrediction& out) {
    const StepSchedule& schedule = out.cost.schedule;
    const ComputeTraceMatch match = matchComputeToTrace(schedule, trace);
    out.computeMismatches = match.mismatches;
    if (!match.matches()) return;
    std::map<WorkKind, std::vector<double>> errors;
    std::map<WorkKind, ComputeAccuracy> byKind;
    for (const auto& pair : match.pairs) {
        const TraceEvent& e = trace.events[pair.event];
        const WorkSpan& span =
            out.cost.simulation.ranks[size_t(pair.rank)].spans[size_t(pair.work)];
        const double measured = std::max(0.0, e.endUs - e.startUs) / 1e6;
        const double predicted = span.end - span.start;
        const WorkKind kind = schedule.ranks[size_t(pair.rank)][size_t(pair.work)].kind;
        errors[kind].push_back(relativeError(measured, predicted));
        ComputeAccuracy& accuracy = byKind[kind];
        accuracy.kind = kind;
        ++accuracy.spans;
        accuracy.measuredSeconds += measured;
        accuracy.predictedSeconds += predicted;
    }
    for (auto& [kind, accuracy] : byKind) {
        accuracy.medianAbsRelError = medianOf(errors[kind]);
        out.compute.push_back(accuracy);
    }
}

}  // namespace

RunPrediction predictRun(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                         const std::vector<std::vector<int64_t>>& paramShapes,
                         const std::vector<std::vector<int64_t>>& tpShapes, const Trace& trace,
                         double measuredStepSeconds) {
    RunPrediction out;
    out.cost = costPlan(scenario, plan, cluster, paramShapes, tpShapes);
    out.predictedSeconds = out.cost.stepSeconds;
    out.measuredSeconds = measuredStepSeconds;
    if (measuredStepSeconds > 0)
        out.makespanRelError = relativeError(measuredStepSeconds, out.predictedSeconds);

    compareCompute(trace, out);
    const StepSchedule& schedule = out.cost.schedule;
    const ScheduleTraceMatch match = matchScheduleToTrace(schedule, trace);
    out.mismatches = match.mismatches;
    if (!match.matches()) return out;
    struct Span {
        double lastStart = 0, lastEnd = 0;
        int members = 0;
    };
    std::vector<Span> spans(schedule.collectives.size());
    for (const auto& pair : match.pairs) {
        const TraceEvent& e = trace.events[pair.event];
        Span& span = spans[size_t(pair.collective)];
        span.lastStart = span.members ? std::max(span.lastStart, e.startUs) : e.startUs;
        span.lastEnd = span.members ? std::max(span.lastEnd, e.endUs) : e.endUs;
        ++span.members;
    }
    const auto& sim = out.cost.simulation;
    std::map<CollectiveOp, std::vector<double>> errors;
    std::map<CollectiveOp, OpAccuracy> byOp;
    std::vector<double> all;
    for (size_t c = 0; c < schedule.collectives.size(); ++c) {
        const ScheduledCollective& sc = schedule.collectives[c];
        const int n = int(schedule.groups[size_t(sc.group)].size());
        if (n <= 1 || spans[c].members == 0) continue;
        CollectiveTiming t;
        t.collective = int(c);
        t.op = sc.op;
        t.groupSize = n;
        t.measuredSeconds = std::max(0.0, spans[c].lastEnd - spans[c].lastStart) / 1e6;
        t.predictedSeconds = sim.collectiveSeconds[c];
        const double error = relativeError(t.measuredSeconds, t.predictedSeconds);
        errors[sc.op].push_back(error);
        all.push_back(error);
        OpAccuracy& op = byOp[sc.op];
        op.op = sc.op;
        ++op.collectives;
        op.measuredSeconds += t.measuredSeconds;
        op.predictedSeconds += t.predictedSeconds;
        out.collectives.push_back(t);
    }
    for (auto& [op, accuracy] : byOp) {
        accuracy.medianAbsRelError = medianOf(errors[op]);
        out.ops.push_back(accuracy);
    }
    out.collectiveMedianAbsRelError = medianOf(all);
    return out;
}

}  // namespace hsdp
