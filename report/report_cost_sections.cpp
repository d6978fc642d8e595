// SPDX-License-Identifier: Apache-2.0
// The prediction's section (report --cluster, or the studio's chosen
// cluster): the step time, phases, critical path and memory as the CLI's
// "Cost on" text gives them, the predicted timeline, the memory per rank,
// and after a run the run above its prediction.
#include "cost/plan_cost.h"
#include "cost/strategy_comparison.h"
#include "derived/run/plan_prediction.h"
#include "export/cost_text.h"
#include "export/text_wrap.h"
#include "memory/memory_chart.h"
#include "report/report_builder.h"
#include "report/report_sections.h"
#include "types/figures.h"

namespace hsdp::report {

namespace {

ReportPicture picture(const char* view, const char* part, const QString& caption, QSize size,
                      bool drawsRun = false) {
    ReportPicture p;
    p.view = QLatin1String(view);
    p.part = QLatin1String(part);
    p.caption = caption;
    p.size = size;
    p.drawsRun = drawsRun;
    return p;
}

Facts costFacts(const PlanCost& cost) {
    const RankCost& peak = cost.ranks[size_t(cost.peakRank)];
    Facts facts = {
        {QStringLiteral("Predicted step"),
         QStringLiteral("%1 %3 (makespan at real size; rank %2 ends last)")
             .arg(QString::fromStdString(durationText(cost.stepSeconds)))
             .arg(cost.lastRank)
             .arg(QString::fromStdString(cost.cluster.trustText()))},
        {QStringLiteral("Peak memory"), QStringLiteral("%1 on rank %2 (%3 resident)")
                                            .arg(bytesText(double(peak.peakBytes)))
                                            .arg(peak.rank)
                                            .arg(bytesText(double(peak.residentBytes)))},
    };
    if (cost.cluster.device.memoryBytes > 0) {
        // Whether the step fits is the first thing its figures depend on.
        const QString memory = outOfMemoryText(cost);
        facts.emplace_back(
            QStringLiteral("Device memory"),
            bytesText(double(cost.cluster.device.memoryBytes)) +
                (memory.isEmpty() ? QStringLiteral(": the step fits")
                                  : QStringLiteral(": DOES NOT FIT (%1)").arg(memory)));
    }
    return facts;
}

void addRunComparison(const ReportInput& input, ReportSection& section) {
    if (!input.run.isValid() || !input.run.prediction) return;
    const Cluster& cluster = *input.run.prediction->cluster;
    QString caption = QStringLiteral(
                          "The run as measured on this machine (above) and as predicted at its "
                          "own shapes on %1 (below), rank by rank, on one time axis: the "
                          "prediction starts where the measured step does, after the run's "
                          "setup.")
                          .arg(QString::fromStdString(cluster.name));
    const RunPrediction* p = input.run.prediction->prediction.get();
    // As the CLI and the studio say: a GPU preset is not this machine, and
    // its gap is a distance to that hardware, never called the model's error.
    if (!cluster.describesEngineRuns()) {
        caption += QStringLiteral(
                       " %1 describes GPUs, not this machine (only loopback or a "
                       "calibrated file does)")
                       .arg(QString::fromStdString(cluster.name));
        // A ratio: "differ by 100 %" said nothing of a step 370x shorter.
        if (p && p->measuredSeconds > 0 && p->predictedSeconds > 0)
            caption += QStringLiteral(
                           ": this machine's step took %1 the predicted one there, a "
                           "distance to that hardware, not the model's error")
                           .arg(QString::fromStdString(
                               ratioText(p->measuredSeconds / p->predictedSeconds)));
        caption += QStringLiteral(".");
    } else if (p && p->makespanRelError) {
        caption +=
            QStringLiteral(" Makespan error %1 %.").arg(*p->makespanRelError * 100, 0, 'f', 0);
    }
    section.picture(picture("predicted", "run", caption, QSize(1500, 900), /*drawsRun=*/true));
}

}  // namespace

void addCostSections(const ReportInput& input, SectionList& list) {
    const PlanPrediction* prediction = input.plan.prediction.get();
    if (!prediction) return;
    if (!prediction->cost) {
        list.add(QStringLiteral("cost"), QStringLiteral("Cost"))
            .paragraph(QStringLiteral("No prediction: %1").arg(prediction->error));
        return;
    }
    const PlanCost& cost = *prediction->cost;
    ReportSection& section =
        list.add(QStringLiteral("cost"), QStringLiteral("Cost on %1").arg(clusterText(cost)));
    section.paragraph(QStringLiteral(
        "What the cost model predicts for the optimizer step on this cluster at the "
        "scenario's real shapes: every collective the runner makes over the slowest link "
        "its group spans, Newton–Schulz at the device's rate, and each rank's memory, "
        "exact (a run measures the same bytes)."));
    section.factList(costFacts(cost));
    // Broken at 100 columns where a break reads ("; ", ", "): the page broke
    // the CLI's long lines mid-figure.
    // With the gather strategies of each gathered group, as plan --cluster.
    const std::string strategies =
        strategyComparisonsText(compareEveryGroup(*input.plan.scenario, *input.plan.plan,
                                                  *prediction->cluster, kComparedGroups),
                                gatheredGroupCount(*input.plan.plan));
    section.code(QString::fromStdString(wrapText(costToText(cost, "real size") + strategies)));
    section.picture(picture("predicted", "plan",
                            QStringLiteral("The predicted step, one row per rank, coloured by "
                                           "phase."),
                            QSize(1500, 900)));
    const MemoryChart memory = memoryChart(cost);
    section.picture(picture(
        "memory", "ranks",
        memory.capacityOnScale() ? QStringLiteral("Each rank's predicted peak by kind of buffer, "
                                                  "the device's capacity dashed.")
        : memory.capacityBytes > 0
            ? QStringLiteral("Each rank's predicted peak by kind of buffer; the device's "
                             "capacity is far above the peaks, so the scale is theirs and the "
                             "axis names the capacity.")
            : QStringLiteral("Each rank's predicted peak by kind of buffer."),
        QSize(1200, 520)));
    section.picture(picture("memory", "entries",
                            QStringLiteral("The peak rank's high-water mark in each schedule "
                                           "entry it takes part in."),
                            QSize(1200, 420)));
    addRunComparison(input, section);
}

}  // namespace hsdp::report
