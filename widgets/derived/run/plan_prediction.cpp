// SPDX-License-Identifier: Apache-2.0
#include "derived/run/plan_prediction.h"

#include <QObject>
#include <algorithm>

#include "cost/predicted_trace.h"
#include "derived/run/run_data.h"
#include "derived/run/run_index.h"
#include "derived/run/trace_timeline.h"
#include "types/figures.h"

namespace hsdp {

namespace {

// The predicted step as a run's trace, for the trace canvas; `shrink` that
// of the run it predicts (none: the real shapes).
// `startUs`: where the predicted step starts on the time axis (a run's
// measured step starts after its setup: the two are laid from one start).
std::shared_ptr<const RunResult> timelineOf(const Plan& plan, const PlanCost& cost,
                                            std::optional<ShrinkInfo> shrink, double startUs = 0) {
    auto timeline = std::make_shared<RunResult>();
    timeline->worldSize = cost.schedule.worldSize;
    timeline->shrink = std::move(shrink);
    timeline->trace = predictedTrace(plan, cost, predictedTraceRanks(cost, kPredictedTraceRanks));
    for (TraceEvent& e : timeline->trace.events) {
        e.startUs += startUs;
        e.endUs += startUs;
    }
    timeline->stepSeconds = cost.stepSeconds;
    return timeline;
}

}  // namespace

std::vector<Diagnostic> planDiagnosticsWithPrediction(const PlanResult& plan) {
    std::vector<Diagnostic> all;
    if (plan.prediction) all = plan.prediction->diagnostics;
    if (plan.plan)
        all.insert(all.end(), plan.plan->diagnostics.begin(), plan.plan->diagnostics.end());
    return all;
}

int diagnosticCount(const PlanResult& plan, Severity severity) {
    auto count = [&](const std::vector<Diagnostic>& list) {
        return int(std::count_if(list.begin(), list.end(),
                                 [&](const Diagnostic& d) { return d.severity == severity; }));
    };
    return (plan.prediction ? count(plan.prediction->diagnostics) : 0) +
           (plan.plan ? count(plan.plan->diagnostics) : 0);
}

std::shared_ptr<const PlanPrediction> predictPlan(const PlanResult& plan,
                                                  std::shared_ptr<const Cluster> cluster,
                                                  std::stop_token stop) {
    if (!cluster || !plan.isValid()) return nullptr;
    auto prediction = std::make_shared<PlanPrediction>();
    prediction->cluster = cluster;
    try {
        auto cost =
            freedOffGuiThread(costPlan(*plan.scenario, *plan.plan, *cluster,
                                       ScheduleBudget{kStudioScheduleItems, std::move(stop)}));
        prediction->timeline = timelineOf(*plan.plan, *cost, std::nullopt);
        prediction->rows = timelineOfRun(RunData{plan, prediction->timeline});
        if (auto memory = memoryDiagnostic(cost->memoryFit, *plan.plan))
            prediction->diagnostics.push_back(std::move(*memory));
        prediction->cost = std::move(cost);
    } catch (const std::exception& error) {
        prediction->error = QString::fromStdString(error.what());
    }
    return prediction;
}

std::shared_ptr<const RunPredictionData> predictRunData(const RunData& run,
                                                        std::shared_ptr<const Cluster> cluster) {
    if (!run.isValid() || !cluster) return nullptr;
    const RunResult& result = *run.run;
    if (result.stepSeconds <= 0 || !result.error.empty() || result.paramShapes.empty())
        return nullptr;
    try {
        auto data = std::make_shared<RunPredictionData>();
        data->cluster = std::move(cluster);
        auto prediction = std::make_shared<const RunPrediction>(
            predictRun(*run.plan.scenario, *run.plan.plan, *data->cluster, result.paramShapes,
                       result.tpShapes, result.trace, result.stepSeconds));
        double stepStartUs = result.trace.events.empty() ? 0 : 1e300;
        for (const TraceEvent& e : result.trace.events)
            stepStartUs = std::min(stepStartUs, e.startUs);
        data->timeline = timelineOf(*run.plan.plan, prediction->cost, result.shrink, stepStartUs);
        data->rows = timelineOfRun(RunData{run.plan, data->timeline});
        data->measuredRows = runIndexOf(run)->timeline;
        data->prediction = std::move(prediction);
        return data;
    } catch (const std::exception&) {
        return nullptr;  // shapes that do not fit the plan: the run shows unpredicted
    }
}

QString clusterText(const PlanCost& cost) {
    return QStringLiteral("%1× %2")
        .arg(cost.cluster.nodes)
        .arg(QString::fromStdString(cost.cluster.name));
}

QString predictionStatusText(const PlanPrediction* prediction) {
    if (!prediction) return {};
    if (!prediction->cost)
        return QObject::tr("no prediction on %1: %2")
            .arg(QString::fromStdString(prediction->cluster->name), prediction->error);
    const PlanCost& cost = *prediction->cost;
    // The status bar gives the validated error in short ("± 61 %", or
    // "(pieces ± 3 %)": no step measured);
    // what it was validated against is in the predicted timeline, the CLI
    // and the report.
    // The Newton–Schulz dtype beside the step ("NS", as the owner balance
    // abbreviates it, to keep the line whole): fp32 and bf16 differ several
    // times over, and a new user could not find which the step assumed.
    const QString step =
        QObject::tr("predicted step %1 %3 on %2, NS %4")
            .arg(QString::fromStdString(durationText(cost.stepSeconds)), clusterText(cost),
                 QString::fromStdString(cost.cluster.trustShortText()),
                 cost.schedule.newtonSchulz.dtype == DType::BF16 ? QStringLiteral("bf16")
                                                                 : QStringLiteral("fp32"));
    if (cost.ranks.empty() || !cost.memoryFit.fits()) return step;
    const RankCost& peak = cost.ranks[size_t(cost.peakRank)];
    // The peak is the optimizer step's: activations and the forward and
    // backward passes are not in it (docs/cost-model.md).
    return QObject::tr("step peak %1 (rank %2) · ")
               .arg(QString::fromStdString(humanBytes(double(peak.peakBytes))))
               .arg(peak.rank) +
           step;
}

QString outOfMemoryText(const PlanCost& cost) {
    const MemoryFit& fit = cost.memoryFit;
    if (fit.fits()) return {};
    auto bytes = [](int64_t b) { return QString::fromStdString(humanBytes(double(b))); };
    return QObject::tr("out of memory: peak %1 (rank %2), %3 over the device's %4")
        .arg(bytes(fit.peakBytes))
        .arg(fit.peakRank)
        .arg(bytes(fit.overBytes()), bytes(fit.deviceBytes));
}

QString outOfMemoryStatusText(const PlanPrediction* prediction) {
    return prediction && prediction->cost ? outOfMemoryText(*prediction->cost) : QString();
}

}  // namespace hsdp
