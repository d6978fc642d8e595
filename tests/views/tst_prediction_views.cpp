// SPDX-License-Identifier: Apache-2.0
// The studio's predictions, offscreen: the window costs every plan on the
// cluster chosen in its Cluster menu (and none on "none"), the status bar
// says the step and the peak rank as the cost model computes them; the
// Memory view's bars stack to each rank's peak, under the device's capacity,
// its byte ticks a round number of GiB apart and its legend beside the bars;
// the Predicted timeline draws the simulation's spans, and after a run the
// measured run above its prediction.
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPicture>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QToolButton>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

#include <qcustomplot.h>
#include "cluster/reader.h"
#include "cost/plan_cost.h"
#include "cost/predicted_trace.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/scenario_document.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_status_text.h"
#include "derived/run/trace_timeline.h"
#include "diagnostics/diagnostics_widget.h"
#include "memory/memory_chart.h"
#include "memory/memory_widget.h"
#include "mesh/mesh_widget.h"
#include "plan/load_imbalance.h"
#include "plan_diff/plan_diff_table.h"
#include "plan_diff/plan_diff_tracker.h"
#include "run/runner.h"
#include "studio_test_util.h"
#include "timeline_picture.h"
#include "trace/predicted_timeline_widget.h"
#include "trace/trace_canvas.h"
#include "trace/trace_zoom_bar.h"
#include "types/figures.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

PlanResult predicted(const QString& file, const char* cluster) {
    PlanResult plan = computePlanResult(sample(file));
    plan.prediction =
        predictPlan(plan, std::make_shared<const Cluster>(readClusterPreset(cluster)));
    return plan;
}

// The 70B sample without its batch cap, written into `dir`: it peaks far
// over an H100's memory.
QString uncapped70b(const QTemporaryDir& dir) {
    QFile in(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    if (!in.open(QIODevice::ReadOnly)) return {};
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject options = doc.value("options").toObject();
    options.remove("max_batch_numel");
    doc.insert("options", options);
    const QString path = dir.filePath(QStringLiteral("70b_uncapped.json"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) return {};
    out.write(QJsonDocument(doc).toJson());
    return path;
}

// The status bar's label of the plan's line.
QLabel* planStatusLabel(MainWindow& window) {
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
        if (label->text() == window.statusText()) return label;
    return nullptr;
}

// Whether `label` shows its text up to the end of `words` uncut.
bool showsUpTo(const QLabel& label, const QString& words) {
    const qsizetype at = label.text().indexOf(words);
    return at >= 0 && label.fontMetrics().horizontalAdvance(label.text().left(at + words.size())) <=
                          label.contentsRect().width();
}

bool chooseAndWait(MainWindow& window, const QString& cluster) {
    QSignalSpy ready(window.session(), &Session::predictionReady);
    // "none" says so at once; a cluster after its prediction is made.
    return window.chooseCluster(cluster, /*quiet=*/true) && (!ready.isEmpty() || ready.wait(20000));
}

}  // namespace

class TestPredictionViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void windowCostsEveryPlanOnTheChosenCluster();
    void anUnreadableClusterChangesNothing();
    void memoryBarsStackToEachRanksPeak();
    void memoryTicksAreRoundAndTheLegendBesideTheBars();
    void memoryLegendNamesOnlyTheKindsThatDraw();
    void memoryPicturesTickWholeEntriesAndRanks();
    void predictedTimelineIsTheSimulation();
    void aRunIsShownAboveItsPrediction();
    void predictedTimelineZoomsLikeTheTrace();
    void aLargeWorldsTimelineKeepsSomeRanks();
    void anEditChangesThePredictionAndWhatChangedSaysHow();
    void aComparisonWithAFileHasBothPredictions();
    void aStepOverTheDeviceLeadsTheStatusBarAndTheDiagnostics();
    void whatChangedListsThePredictionsDiagnostics();
};

void TestPredictionViews::windowCostsEveryPlanOnTheChosenCluster() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    const PlanResult& result = window.session()->current();
    QVERIFY(result.prediction && result.prediction->cost);
    // The cost model's own figures, computed here apart from the window.
    const PlanCost cost = costPlan(*result.scenario, *result.plan, readClusterPreset("h100-dgx"));
    const RankCost& peak = cost.ranks[size_t(cost.peakRank)];
    const QString status = window.statusText();
    // With how far to trust it: the preset's validated error (what it was
    // validated against is the predicted timeline's and the report's to say).
    QVERIFY(cost.cluster.validation.errorPercent >= 0);
    // A preset checked on its pieces (links, matrix products) says so: no
    // measured step stands behind it (a new user read "± 3 %" as the step's).
    // And the Newton–Schulz dtype the step was priced in (fp32 and bf16
    // differ several times over).
    QCOMPARE(result.scenario->options.newtonSchulz.dtype, DType::F32);
    QVERIFY2(
        status.contains(QStringLiteral("predicted step %1 (pieces ± %2 %) on 4× h100-dgx, NS fp32")
                            .arg(QString::fromStdString(durationText(cost.stepSeconds)))
                            .arg(std::lround(cost.cluster.validation.errorPercent))),
        qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("step peak %1 (rank %2)")
                                 .arg(QString::fromStdString(humanBytes(double(peak.peakBytes))))
                                 .arg(peak.rank)),
             qPrintable(status));
    // With a prediction the status bar names the imbalance that sets the step
    // (the busiest rank's Newton–Schulz), apart from the owner imbalance.
    std::vector<int64_t> computed;
    for (const RankOwnership& rank : result.plan->ranks) computed.push_back(rank.computedNumel);
    const QString perRank = QStringLiteral("per-rank NS imbalance %1 (sets the step)")
                                .arg(*loadImbalance(computed), 0, 'f', 2);
    QVERIFY2(status.contains(perRank), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral(" · owner imbalance ")), qPrintable(status));

    // A slower device predicts a slower step; "none" predicts nothing.
    QVERIFY(chooseAndWait(window, QStringLiteral("a100-dgx")));
    QVERIFY(window.session()->current().prediction->cost->stepSeconds > cost.stepSeconds);
    // The mesh view outlines the nodes of the chosen cluster, and none without one.
    const MeshCanvas* mesh = window.view<MeshWidget>()->canvas();
    QVERIFY(mesh->showsNodes());
    QCOMPARE(mesh->nodes().nodes, 4);
    QVERIFY(chooseAndWait(window, QStringLiteral("none")));
    QVERIFY(!window.session()->current().prediction);
    QVERIFY(!window.statusText().contains(QStringLiteral("predicted")));
    QVERIFY(!window.statusText().contains(QStringLiteral("Newton–Schulz")));
    QVERIFY(window.statusText().contains(QStringLiteral("owner imbalance ")));
    QVERIFY(!mesh->showsNodes());
    // The choice holds for the next file too.
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    QSignalSpy planned(window.session(), &Session::planReady);
    QSignalSpy predicted(window.session(), &Session::predictionReady);
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    // The plan comes first, its prediction after it (maybe while the views
    // still take the plan: it reaches them once they hold it).
    QCOMPARE(planned.count(), 1);
    QVERIFY(!planned.first().at(0).value<PlanResult>().prediction);
    QVERIFY(!predicted.isEmpty() || predicted.wait(20000));
    QVERIFY(window.session()->current().prediction);
    QCOMPARE(window.clusterChoice(), QStringLiteral("h100-dgx"));
}

void TestPredictionViews::anUnreadableClusterChangesNothing() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    QVERIFY(!window.chooseCluster(QStringLiteral("/no/such/cluster.json"), /*quiet=*/true));
    QCOMPARE(window.clusterChoice(), QStringLiteral("h100-dgx"));
    QVERIFY(window.session()->current().prediction);
}

void TestPredictionViews::memoryBarsStackToEachRanksPeak() {
    PlanSelection selection;
    MemoryWidget view(&selection);
    view.showPlan(computePlanResult(sample("teaching_2x2.json")));
    QVERIFY(view.message().contains(QStringLiteral("Cluster menu")));
    QVERIFY(view.screenshots().isEmpty());

    const PlanResult plan = predicted(QStringLiteral("llama3_70b_hsdp_tp_2x4x4.json"), "h100-dgx");
    selection.setPlan(plan, {});
    view.showPlan(plan);
    QVERIFY(view.message().isEmpty());
    const PlanCost& cost = *plan.prediction->cost;
    QCOMPARE(view.chart().ranks.size(), qsizetype(cost.memory.size()));
    for (size_t r = 0; r < cost.memory.size(); ++r) {
        double stacked = 0;
        for (int k = 0; k < kMemoryKinds; ++k)
            stacked += view.kindBars(MemoryKind(k))->data()->at(int(r))->value;
        QCOMPARE(int64_t(stacked), cost.memory[r].peakBytes);
    }
    QCOMPARE(view.capacityLine()->point1->coords().y(),
             double(readClusterPreset("h100-dgx").device.memoryBytes));
    QCOMPARE(view.shownRank(), cost.peakRank);
    // What the peak leaves out is said where it is read, and the state kind
    // names AdamW's moments (a new user looked for them).
    QVERIFY2(view.rankTitleText().contains(QStringLiteral("optimizer-step peak")) &&
                 view.rankTitleText().contains(QStringLiteral("no activations")),
             qPrintable(view.rankTitleText()));
    QVERIFY(view.kindBars(MemoryKind::Momentum)->name().contains(QStringLiteral("AdamW")));
    view.selectRank(5);
    QCOMPARE(view.shownRank(), 5);
    const QCPBarsDataContainer& entries =
        *static_cast<QCPBars*>(view.entryPlot()->plottable(0))->data();
    QCOMPARE(entries.size(), int(cost.memory[5].entries.size()));
    QCOMPARE(int64_t(entries.at(0)->value), cost.memory[5].entries[0].peakBytes);
    QVERIFY(!view.renderImage(QSize(900, 600)).isNull());
}

// 80 GB devices (79.6 GiB): ticks at 0, 20, 40, 60 GiB, not at 23.3 and
// 46.6 GiB (steps of 2.5e10 bytes); the legend of the nine kinds of buffer
// right of the bars, none of which it covers (it hid ranks 27-31).
void TestPredictionViews::memoryTicksAreRoundAndTheLegendBesideTheBars() {
    PlanSelection selection;
    MemoryWidget view(&selection);
    const PlanResult plan = predicted(QStringLiteral("llama3_70b_hsdp_tp_2x4x4.json"), "h100-dgx");
    selection.setPlan(plan, {});
    view.showPlan(plan);
    for (const QSize size : {QSize(1900, 440), QSize(900, 600)}) {
        view.renderImage(size);
        for (QCustomPlot* plot : {view.rankPlot(), view.entryPlot()}) {
            const QVector<double> ticks = plot->yAxis->tickVector();
            QVERIFY(ticks.size() >= 3);
            double unit = 1;
            while (unit * 1024 <= ticks.back()) unit *= 1024;
            const double step = (ticks[1] - ticks[0]) / unit;
            const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
            QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                         std::abs(mantissa - 2.5) < 1e-9 || std::abs(mantissa - 5) < 1e-9,
                     qPrintable(plot->yAxis->tickVectorLabels().join(QStringLiteral(", "))));
            for (double tick : ticks) {
                const double steps = tick / unit / step;
                QVERIFY2(std::abs(steps - std::round(steps)) < 1e-6,
                         qPrintable(plot->yAxis->tickVectorLabels().join(QStringLiteral(", "))));
            }
        }
        QCustomPlot* ranks = view.rankPlot();
        QVERIFY(ranks->legend->visible());
        const QRect legend = ranks->legend->outerRect();
        for (int k = 0; k < kMemoryKinds; ++k)
            for (auto bar = view.kindBars(MemoryKind(k))->data()->constBegin();
                 bar != view.kindBars(MemoryKind(k))->data()->constEnd(); ++bar) {
                if (bar->value <= 0) continue;
                const QRectF drawn(QPointF(ranks->xAxis->coordToPixel(bar->key - 0.4),
                                           ranks->yAxis->coordToPixel(bar->value)),
                                   QPointF(ranks->xAxis->coordToPixel(bar->key + 0.4),
                                           ranks->yAxis->coordToPixel(0)));
                QVERIFY2(!legend.intersects(drawn.toAlignedRect()),
                         qPrintable(QStringLiteral("the legend covers rank %1").arg(bar->key)));
            }
    }
}

// The Memory view's legend names the kinds of buffer that draw a bar: a kind
// at zero bytes on every rank shown (teaching's plan gathers nothing in
// some kinds) is left out, the others keep their stacking order, top first.
void TestPredictionViews::memoryLegendNamesOnlyTheKindsThatDraw() {
    int leftOut = 0;
    for (const char* file :
         {"teaching_2x2.json", "llama3_8b_hsdp_2x4.json", "llama3_70b_hsdp_tp_2x4x4.json"}) {
        PlanSelection selection;
        MemoryWidget view(&selection);
        const PlanResult plan = predicted(QLatin1String(file), "h100-dgx");
        selection.setPlan(plan, {});
        view.showPlan(plan);
        view.renderImage(QSize(1900, 440));  // bars, not the distribution
        QCustomPlot* ranks = view.rankPlot();
        QVERIFY(ranks->legend->visible());
        QStringList drawn, named;
        for (int k = kMemoryKinds - 1; k >= 0; --k) {
            const QVector<double>& bytes = view.chart().atPeak[size_t(k)];
            if (std::any_of(bytes.begin(), bytes.end(), [](double b) { return b > 0; }))
                drawn << view.kindBars(MemoryKind(k))->name();
            else
                ++leftOut;
        }
        for (int i = 0; i < ranks->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(ranks->legend->item(i)))
                named << item->plottable()->name();
        QCOMPARE(named, drawn);
    }
    QVERIFY2(leftOut > 0, "no sample has a kind of buffer at zero: nothing to leave out");
    // The entries chart's bars total every kind: in no kind's colour.
    PlanSelection selection;
    MemoryWidget view(&selection);
    view.showPlan(predicted(QStringLiteral("teaching_2x2.json"), "h100-dgx"));
    auto* entries = qobject_cast<QCPBars*>(view.entryPlot()->plottable(0));
    QVERIFY(entries);
    for (int k = 0; k < kMemoryKinds; ++k)
        QVERIFY2(entries->brush().color() != view.kindBars(MemoryKind(k))->brush().color(),
                 qPrintable(view.kindBars(MemoryKind(k))->name()));
}

// A report's memory pictures, drawn by a view never shown: the entries
// chart's keys are whole schedule entries named as the plan numbers them
// ("#3", "whole"), never 0.5, 1.5 (a rank in three entries: the default
// ticker's steps of 0.5); the rank chart's keys whole ranks and its legend
// inside the picture; capacity far above the peaks (KiB on an 80 GB device)
// leaves the bars their scale, and the axis names it.
void TestPredictionViews::memoryPicturesTickWholeEntriesAndRanks() {
    const PlanResult plan = predicted(QStringLiteral("llama3_8b_hsdp_2x4.json"), "h100-dgx");
    const PlanCost& cost = *plan.prediction->cost;
    int rank = -1;
    for (int r = 0; r < int(cost.memory.size()) && rank < 0; ++r) {
        const size_t entries = entryMemory(cost, r).keys.size();
        if (entries >= 2 && entries <= 3) rank = r;
    }
    QVERIFY2(rank >= 0, "no rank of the sample takes part in two or three entries");
    const EntryMemorySeries series = entryMemory(cost, rank);
    const PlanResult tiny = predicted(QStringLiteral("teaching_2x2.json"), "h100-dgx");
    for (const QSize size : {QSize(1200, 420), QSize(624, 218)}) {
        PlanSelection selection;
        MemoryWidget view(&selection);
        selection.setPlan(plan, {});
        view.showPlan(plan);
        view.selectRank(rank);
        QPicture entries;
        view.paintPicture(entries, size, QStringLiteral("entries"));
        QCPAxis* axis = view.entryPlot()->xAxis;
        const QVector<double> ticks = axis->tickVector();
        const QStringList labels = axis->tickVectorLabels();
        QStringList named;
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            if (!axis->range().contains(ticks[i])) continue;
            QVERIFY2(
                ticks[i] == std::round(ticks[i]) && ticks[i] >= 0 && ticks[i] < series.keys.size(),
                qPrintable(labels.join(QStringLiteral(", "))));
            if (!labels[i].isEmpty()) named << labels[i];
            QVERIFY(labels[i].isEmpty() || labels[i] == series.names[qsizetype(ticks[i])]);
        }
        QCOMPARE(named, QStringList(series.names.begin(), series.names.end()));

        for (const PlanResult& shown : {plan, tiny}) {
            view.showPlan(shown);
            const QSize picture(size.width(), size.height() + 100);
            QPicture ranks;
            view.paintPicture(ranks, picture, QStringLiteral("ranks"));
            QCustomPlot* plot = view.rankPlot();
            for (double tick : plot->xAxis->tickVector())
                if (plot->xAxis->range().contains(tick)) QCOMPARE(tick, std::round(tick));
            QVERIFY2(QRect(QPoint(0, 0), picture).contains(plot->legend->outerRect()),
                     qPrintable(QStringLiteral("the legend (%1, %2 %3x%4) runs out of the picture")
                                    .arg(plot->legend->outerRect().x())
                                    .arg(plot->legend->outerRect().y())
                                    .arg(plot->legend->outerRect().width())
                                    .arg(plot->legend->outerRect().height())));
        }
        // Teaching's peaks are 8.8 KiB under 79.6 GiB.
        QVERIFY(!view.chart().capacityOnScale());
        QVERIFY(!view.capacityLine()->visible());
        QVERIFY2(view.rankPlot()->yAxis->range().upper < view.chart().capacityBytes / 100,
                 "the bars are slivers under the capacity");
        QVERIFY(view.rankPlot()->xAxis->label().contains(QStringLiteral("off this scale")));
    }
}

void TestPredictionViews::predictedTimelineIsTheSimulation() {
    const PlanResult plan = predicted(QStringLiteral("llama3_8b_hsdp_2x4.json"), "h100-dgx");
    const PlanCost& cost = *plan.prediction->cost;
    const Trace trace = predictedTrace(*plan.plan, cost);
    size_t items = 0;
    for (const auto& rank : cost.schedule.ranks) items += rank.size();
    QCOMPARE(trace.events.size(), items);
    // Every member of a collective spans the same predicted time.
    for (const TraceEvent& e : trace.events) {
        if (isCompute(e)) {
            QVERIFY(e.seq < 0);
            // A Newton–Schulz names the one param this rank computes, as the
            // plan says (once it named its whole batch on every rank).
            if (e.op == "newton_schulz") {
                QCOMPARE(e.label.params.size(), size_t(1));
                const auto& computed = plan.plan->ranks[size_t(e.rank)].computed;
                QVERIFY2(
                    std::binary_search(computed.begin(), computed.end(), e.label.params[0]),
                    qPrintable(
                        QStringLiteral("rank %1, param %2").arg(e.rank).arg(e.label.params[0])));
            }
            continue;
        }
        QCOMPARE(e.startUs, cost.simulation.collectiveStart[size_t(e.seq)] * 1e6);
        const double seconds = cost.simulation.collectiveSeconds[size_t(e.seq)];
        QVERIFY(qAbs((e.endUs - e.startUs) - seconds * 1e6) <= 1e-6 * qMax(1.0, seconds * 1e6));
    }
    PlanSelection selection;
    PredictedTimelineWidget view(&selection);
    view.showPlan(plan);
    const TraceTimeline* timeline = view.planCanvas()->timeline();
    QVERIFY(timeline);
    QCOMPARE(timeline->rowCount(), plan.plan->worldSize);
    QCOMPARE(timeline->endUs(), cost.stepSeconds * 1e6);
    QVERIFY(view.caption().contains(QString::fromStdString(durationText(cost.stepSeconds))));
    // With the Newton–Schulz dtype it assumed (a new user could not find it).
    QVERIFY2(view.caption().contains(QStringLiteral("Newton–Schulz in fp32, 5 steps")),
             qPrintable(view.caption()));
    QVERIFY(!view.canShowRun());
    // Its zero is the predicted step's start (there may be no run), and its
    // counts have thousands separators ("23,863 events", not "23863").
    QCOMPARE(view.planCanvas()->timeAxisTitle(), QStringLiteral("predicted time since step start"));
    QVERIFY(view.measuredCanvas()->timeAxisTitle().contains(QStringLiteral("run start")));
    QVERIFY2(view.planCanvas()->summaryText().endsWith(
                 QStringLiteral("%1 spans (collectives per member, compute)")
                     .arg(groupedNumber(timeline->eventCount()))),
             qPrintable(view.planCanvas()->summaryText()));
    QVERIFY(timeline->eventCount() >= 1000);  // so that the separator shows
}

// Each predicted event copies its group's ranks and batch's params: a world
// past kPredictedTraceRanks keeps the rows of a few ranks, exactly as the full
// trace has them, and the caption says which.
void TestPredictionViews::aLargeWorldsTimelineKeepsSomeRanks() {
    const PlanResult plan = predicted(QStringLiteral("llama3_8b_hsdp_2x4.json"), "h100-dgx");
    const PlanCost& cost = *plan.prediction->cost;
    const std::vector<int> kept = predictedTraceRanks(cost, 3);
    QVERIFY(kept.size() >= 2 && kept.size() <= 3);  // 0, 4 and the last (maybe one of them)
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));
    QVERIFY(std::find(kept.begin(), kept.end(), cost.simulation.lastRank) != kept.end());
    QCOMPARE(kept.front(), 0);
    QCOMPARE(predictedTraceRanks(cost, 8).size(), size_t(8));  // the whole world fits
    const Trace full = predictedTrace(*plan.plan, cost);
    const Trace some = predictedTrace(*plan.plan, cost, kept);
    std::vector<TraceEvent> expected;
    for (const TraceEvent& e : full.events)
        if (std::find(kept.begin(), kept.end(), e.rank) != kept.end()) expected.push_back(e);
    QCOMPARE(some.events.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(some.events[i].rank, expected[i].rank);
        QCOMPARE(some.events[i].op, expected[i].op);
        QCOMPARE(some.events[i].startUs, expected[i].startUs);
        QCOMPARE(some.events[i].endUs, expected[i].endUs);
    }
    // The studio's own prediction of a world larger than its row limit.
    PlanResult large =
        computePlanResult(QStringLiteral(HSDP_SOURCE_DIR "/tests/data/scale/hsdp_tp_4x16x16.json"));
    large.prediction =
        predictPlan(large, std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
    QVERIFY(large.plan->worldSize > kPredictedTraceRanks);
    std::set<int> rows;
    for (const TraceEvent& e : large.prediction->timeline->trace.events) rows.insert(e.rank);
    QVERIFY(rows.size() <= size_t(kPredictedTraceRanks));
    QVERIFY(rows.count(large.prediction->cost->simulation.lastRank));
    PlanSelection selection;
    PredictedTimelineWidget view(&selection);
    view.showPlan(large);
    QVERIFY(view.caption().contains(QStringLiteral("rows of 64 of the 1,024 ranks")));
}

void TestPredictionViews::aRunIsShownAboveItsPrediction() {
    const PlanResult plan = predicted(QStringLiteral("teaching_2x2.json"), "loopback");
    RunData run{plan, std::make_shared<const RunResult>(runPlan(*plan.scenario, *plan.plan, {}))};
    run.prediction = predictRunData(run, plan.prediction->cluster);
    QVERIFY(run.prediction);
    PlanSelection selection;
    PredictedTimelineWidget view(&selection);
    view.showPlan(plan);
    view.showRun(run);
    QVERIFY(view.canShowRun());
    QCOMPARE(view.shown(), PredictedTimelineWidget::Shown::Run);
    QCOMPARE(view.measuredCanvas()->timeline()->rowCount(),
             view.runPredictionCanvas()->timeline()->rowCount());
    // The prediction starts where the measured step does (the measured one
    // starts after the run's setup; both from 0 read as a step 1.1 s late).
    const double measuredStart = view.measuredCanvas()->timeline()->beginUs();
    QVERIFY(measuredStart > 0);
    QCOMPARE(view.runPredictionCanvas()->timeline()->beginUs(), measuredStart);
    QCOMPARE(view.runPredictionCanvas()->timeline()->endUs() - measuredStart,
             run.prediction->prediction->predictedSeconds * 1e6);
    QVERIFY(view.caption().contains(QStringLiteral("makespan error")));
    // The measured step is said as part of the whole run, whose wall time
    // the status bar gives: two "wall" figures that did not say which.
    QVERIFY2(view.measuredTitle().contains(QStringLiteral("the optimizer step ")) &&
                 view.measuredTitle().contains(
                     QStringLiteral("of the whole run's %1")
                         .arg(QString::fromStdString(durationText(run.run->seconds)))),
             qPrintable(view.measuredTitle()));
    QCOMPARE(view.screenshots().size(), qsizetype(2));
    {
        // A selected collective is outlined in the prediction on its own
        // ranks: a seq whose collective there is another group's stands for
        // the one of the selected ranks carrying the selected params.
        const TraceTimeline& predictedRows = *view.runPredictionCanvas()->timeline();
        const TraceEvent* a = nullptr;
        const TraceEvent* b = nullptr;
        for (int i = 0; i < predictedRows.eventCount() && !b; ++i) {
            const TraceEvent& e = predictedRows.event(i);
            if (isCompute(e) || e.label.params.empty()) continue;
            if (!a)
                a = &e;
            else if (e.groupRanks != a->groupRanks)
                b = &e;
        }
        QVERIFY(a && b);
        selection.selectCollective(a->seq, b->groupRanks, b->label.params);
        const int64_t shown = view.runPredictionCanvas()->highlightedSeq();
        QVERIFY(shown >= 0);
        const TraceEvent& outlined = predictedRows.event(predictedRows.eventsOfSeq(shown).front());
        QCOMPARE(outlined.groupRanks, b->groupRanks);
        QCOMPARE(outlined.label.params, b->label.params);
        selection.clear();
    }
    // On a GPU preset the gap is a distance to other hardware, said first,
    // never called the model's error.
    RunData onGpu = run;
    onGpu.prediction =
        predictRunData(run, std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
    QVERIFY(onGpu.prediction);
    view.showRun(onGpu);
    // The GPUs' step is far shorter than this machine's: one time axis shows it.
    QVERIFY(view.runPredictionCanvas()->timelineEndUs() <
            view.measuredCanvas()->timelineEndUs() / 2);
    QCOMPARE(view.runPredictionCanvas()->windowEnd(), view.measuredCanvas()->windowEnd());
    QVERIFY(view.runPredictionCanvas()->windowEnd() >= view.measuredCanvas()->timelineEndUs());
    // Its picture too, whichever the view shows on screen: the predicted
    // bars end well left of the measured ones.
    view.setShown(PredictedTimelineWidget::Shown::Plan);
    {
        const QSize size(1200, 600);
        const QImage picture = view.picture(size, QStringLiteral("run"));
        const auto areas = PredictedTimelineWidget::runPicture(size);
        const int measured = testing::rightmostBar(picture, areas.measured),
                  predicted = testing::rightmostBar(picture, areas.predicted);
        QVERIFY2(measured > 0 && predicted >= 0 && predicted < measured * 0.6,
                 qPrintable(QStringLiteral("measured bars to %1 px, predicted to %2 px")
                                .arg(measured)
                                .arg(predicted)));
    }
    view.setShown(PredictedTimelineWidget::Shown::Run);
    QVERIFY2(
        view.caption().startsWith(QStringLiteral("h100-dgx describes GPUs, not this machine")) &&
            view.caption().contains(QStringLiteral("not the model's error")) &&
            !view.caption().contains(QStringLiteral("makespan error")),
        qPrintable(view.caption()));
    // The gap as a ratio, never a percentage capped at 100 % ("differ by 100 %" for 840x).
    {
        const RunPrediction& p = *onGpu.prediction->prediction;
        QVERIFY2(view.caption().contains(QStringLiteral("took %1 the predicted one")
                                             .arg(QString::fromStdString(ratioText(
                                                 p.measuredSeconds / p.predictedSeconds)))) &&
                     !view.caption().contains(QStringLiteral("100 %")),
                 qPrintable(view.caption()));
    }
    // The picture has no caption: its title says it, beside the figure.
    QVERIFY2(view.predictedTitle().contains(QStringLiteral("GPUs, not this machine")),
             qPrintable(view.predictedTitle()));
    view.showRun(run);
    QVERIFY(!view.predictedTitle().contains(QStringLiteral("not this machine")));
    // The plan's picture says it is a prediction, on which cluster, and its
    // step, in a title band above the timeline (ink there, on white).
    QVERIFY2(view.planTitle().startsWith(QStringLiteral("Predicted, not measured: the step on ")) &&
                 view.planTitle().contains(QStringLiteral("loopback")),
             qPrintable(view.planTitle()));
    const QSize size = view.fittedPictureSize(QSize(1200, 600), QStringLiteral("plan"));
    const QImage picture = view.picture(size, QStringLiteral("plan"));
    int ink = 0;
    for (int y = 0; y < PredictedTimelineWidget::kPictureTitleHeight; ++y)
        for (int x = 0; x < 400; ++x) ink += qGray(picture.pixel(x, y)) < 128;
    QVERIFY2(ink > 50, qPrintable(QString::number(ink)));
    // Another plan: the run is no longer this view's.
    view.showPlan(predicted(QStringLiteral("llama3_8b_hsdp_2x4.json"), "loopback"));
    QVERIFY(!view.canShowRun());
    QCOMPARE(view.shown(), PredictedTimelineWidget::Shown::Plan);
}

// The predicted timeline has the trace view's −, + and Fit: they zoom the
// plan's timeline, or, with a run shown, the measured and the predicted one
// together (the plan's, hidden, keeps its window).
void TestPredictionViews::predictedTimelineZoomsLikeTheTrace() {
    const PlanResult plan = predicted(QStringLiteral("teaching_2x2.json"), "loopback");
    PlanSelection selection;
    PredictedTimelineWidget view(&selection);
    view.resize(1000, 700);
    view.showPlan(plan);
    TraceZoomBar* bar = view.zoomBar();
    QVERIFY(bar);
    const auto span = [](const TraceCanvas* c) { return c->windowEnd() - c->windowStart(); };
    const double fitted = span(view.planCanvas());
    QVERIFY(fitted > 0);
    bar->zoomInButton()->click();
    bar->zoomInButton()->click();
    const double zoomed = span(view.planCanvas());
    QVERIFY(zoomed < fitted * 0.9);
    bar->zoomOutButton()->click();
    QVERIFY(span(view.planCanvas()) > zoomed * 1.1);
    bar->zoomInButton()->click();
    bar->fitButton()->click();
    QCOMPARE(span(view.planCanvas()), fitted);

    RunData run{plan, std::make_shared<const RunResult>(runPlan(*plan.scenario, *plan.plan, {}))};
    run.prediction = predictRunData(run, plan.prediction->cluster);
    view.showRun(run);
    QCOMPARE(view.shown(), PredictedTimelineWidget::Shown::Run);
    const double measured = span(view.measuredCanvas());
    const double predictedSpan = span(view.runPredictionCanvas());
    bar->zoomInButton()->click();
    QVERIFY(span(view.measuredCanvas()) < measured * 0.9);
    QVERIFY(span(view.runPredictionCanvas()) < predictedSpan * 0.9);
    QCOMPARE(span(view.planCanvas()), fitted);
    bar->fitButton()->click();
    QCOMPARE(span(view.measuredCanvas()), measured);
    QCOMPARE(span(view.runPredictionCanvas()), predictedSpan);
}

// A what-if edit that doubles the largest param's rows is costed at once: the
// prediction after it is the cost model's of the edited scenario, and What
// changed gives the step and the peak before and after.
// File ▸ Compare with… costs the other file on the open plan's cluster: its
// rows had the imbalance only, no step time or memory of either plan.
void TestPredictionViews::aComparisonWithAFileHasBothPredictions() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    const QString other = sample("diff/llama3_8b_all_to_all.json");
    window.compareWith(other);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.planDiffTracker()->change().isValid() &&
            window.planDiffTracker()->change().summary.contains(QStringLiteral(" · peak ")),
        20000);
    const PlanResult reference = computePlanResult(other);
    const PlanCost theirs =
        costPlan(*reference.scenario, *reference.plan, readClusterPreset("h100-dgx"));
    const PlanCost& ours = *window.session()->current().prediction->cost;
    const PlanDiffTable& change = window.planDiffTracker()->change();
    QVERIFY2(change.summary.contains(
                 QStringLiteral("peak %1 → %2")
                     .arg(QString::fromStdString(
                              humanBytes(double(ours.ranks[size_t(ours.peakRank)].peakBytes))),
                          QString::fromStdString(humanBytes(
                              double(theirs.ranks[size_t(theirs.peakRank)].peakBytes))))),
             qPrintable(change.summary));
}

void TestPredictionViews::anEditChangesThePredictionAndWhatChangedSaysHow() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    const PlanCost before = *window.session()->current().prediction->cost;
    const QString pointer = QStringLiteral("/params/0/shape/0");
    const int64_t rows = window.document()->value(pointer)->get<int64_t>();
    QSignalSpy ready(window.session(), &Session::predictionReady);
    window.document()->setValue(pointer, Json(rows * 2), QStringLiteral("double the rows"));
    QVERIFY(ready.wait(20000));
    const PlanResult& edited = window.session()->current();
    const PlanCost after = costPlan(*edited.scenario, *edited.plan, readClusterPreset("h100-dgx"));
    QCOMPARE(edited.prediction->cost->stepSeconds, after.stepSeconds);
    QVERIFY(after.ranks[size_t(after.peakRank)].peakBytes >
            before.ranks[size_t(before.peakRank)].peakBytes);
    // Compared once the plan came, again once its prediction did.
    QTRY_VERIFY_WITH_TIMEOUT(
        window.planDiffTracker()->change().currentPlan == edited.plan &&
            window.planDiffTracker()->change().summary.contains(QStringLiteral(" · peak ")),
        20000);
    const PlanDiffTable& change = window.planDiffTracker()->change();
    QVERIFY2(change.summary.contains(
                 QStringLiteral("peak %1 → %2")
                     .arg(QString::fromStdString(
                              humanBytes(double(before.ranks[size_t(before.peakRank)].peakBytes))),
                          QString::fromStdString(
                              humanBytes(double(after.ranks[size_t(after.peakRank)].peakBytes))))),
             qPrintable(change.summary));
    bool stepRow = false;
    for (const PlanDiffRow& row : change.rows(PlanDiffSection::Imbalance))
        if (row.item == QStringLiteral("predicted step"))
            stepRow = row.after == QString::fromStdString(durationText(after.stepSeconds)) &&
                      // with its validated error, as every predicted time
                      row.what.contains(QString::fromStdString(after.cluster.trustText()));
    QCOMPARE(stepRow, after.stepSeconds != before.stepSeconds);
}

// A predicted peak over the device's memory is the out-of-memory error:
// first in the diagnostics view and first in the status bar, with the worst
// rank and the bytes over as the cost model gives them; counted among the
// errors. In the default 1440 px window the status bar shows the peak
// uncut, for a plan that fits too.
void TestPredictionViews::aStepOverTheDeviceLeadsTheStatusBarAndTheDiagnostics() {
    QTemporaryDir dir;
    const QString path = uncapped70b(dir);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, path));
    QVERIFY(chooseAndWait(window, QStringLiteral("h100-dgx")));
    const PlanResult& result = window.session()->current();
    QVERIFY(result.prediction && result.prediction->cost);
    // The cost model's own figures, computed here apart from the window.
    const Cluster h100 = readClusterPreset("h100-dgx");
    const PlanCost cost = costPlan(*result.scenario, *result.plan, h100);
    const RankCost& peak = cost.ranks[size_t(cost.peakRank)];
    QVERIFY2(peak.peakBytes > h100.device.memoryBytes, "the uncapped 70B fits an H100 now");
    auto bytes = [](int64_t b) { return QString::fromStdString(humanBytes(double(b))); };
    const QString outOfMemory =
        QStringLiteral("out of memory: peak %1 (rank %2), %3 over the device's %4")
            .arg(bytes(peak.peakBytes))
            .arg(peak.rank)
            .arg(bytes(peak.peakBytes - h100.device.memoryBytes), bytes(h100.device.memoryBytes));
    QApplication::processEvents();
    const QString status = window.statusText();
    QVERIFY2(status.startsWith(outOfMemory), qPrintable(status));
    QVERIFY2(window.diagnosticCountsText().startsWith(
                 QStringLiteral("%1 error").arg(result.index->errorCount + 1)),
             qPrintable(window.diagnosticCountsText()));
    QLabel* label = planStatusLabel(window);
    QVERIFY(label);
    QVERIFY2(showsUpTo(*label, outOfMemory), qPrintable(status));

    const DiagnosticsModel* diagnostics = window.view<DiagnosticsWidget>()->model();
    QCOMPARE(diagnostics->rowCount(), int(result.plan->diagnostics.size()) + 1);
    QCOMPARE(diagnostics->index(0, DiagnosticsModel::CodeColumn).data().toString(),
             QStringLiteral("out-of-memory"));
    QCOMPARE(diagnostics->index(0, DiagnosticsModel::SeverityColumn).data().toString(),
             QStringLiteral("error"));
    const QString message =
        diagnostics->index(0, DiagnosticsModel::MessageColumn).data().toString();
    QVERIFY2(message.contains(
                 QStringLiteral("rank %1 peaks at %2").arg(peak.rank).arg(bytes(peak.peakBytes))),
             qPrintable(message));
    // The row is cut at the view's width; its tooltip is rich text, which
    // QToolTip wraps, and holds the whole message, remedy included.
    const QString tip =
        diagnostics->index(0, DiagnosticsModel::MessageColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(Qt::mightBeRichText(tip), qPrintable(tip));
    QTextDocument shown;
    shown.setHtml(tip);
    QCOMPARE(shown.toPlainText(), message);
    for (int row = 1; row < diagnostics->rowCount(); ++row)
        QCOMPARE(diagnostics->index(row, DiagnosticsModel::CodeColumn).data().toString(),
                 QString::fromStdString(result.plan->diagnostics[size_t(row - 1)].code));
    // Every figure of the step says it cannot run: the predicted timeline's
    // title before its step time, the memory chart's title beside its bars.
    const QString timelineTitle = window.view<PredictedTimelineWidget>()->planTitle();
    QVERIFY2(timelineTitle.startsWith(QStringLiteral("Does not fit (%1): ").arg(outOfMemory)),
             qPrintable(timelineTitle));
    window.view<PredictedTimelineWidget>()->setShown(PredictedTimelineWidget::Shown::Plan);
    const QString onScreen = window.view<PredictedTimelineWidget>()->caption();
    QVERIFY2(onScreen.startsWith(QStringLiteral("Does not fit (%1): ").arg(outOfMemory)),
             qPrintable(onScreen));
    const QString memoryTitle = window.view<MemoryWidget>()->rankTitleText();
    QVERIFY2(memoryTitle.startsWith(QStringLiteral("Does not fit: %1 over the device's %2\n")
                                        .arg(bytes(peak.peakBytes - h100.device.memoryBytes),
                                             bytes(h100.device.memoryBytes))),
             qPrintable(memoryTitle));

    // The sample as it is fits: no error added, the peak still in view.
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    QVERIFY(testing::predictionDone(window));
    QApplication::processEvents();
    const PlanResult& fits = window.session()->current();
    QVERIFY(fits.prediction && fits.prediction->cost);
    const PlanCost fitting = costPlan(*fits.scenario, *fits.plan, h100);
    const RankCost& fittingPeak = fitting.ranks[size_t(fitting.peakRank)];
    const QString peakWords =
        QStringLiteral("peak %1 (rank %2)").arg(bytes(fittingPeak.peakBytes)).arg(fittingPeak.rank);
    QVERIFY(!window.statusText().contains(QStringLiteral("out of memory")));
    QVERIFY(
        !window.view<PredictedTimelineWidget>()->planTitle().contains(QStringLiteral("not fit")));
    QVERIFY(!window.view<MemoryWidget>()->rankTitleText().contains(QStringLiteral("Does not fit")));
    QCOMPARE(window.view<DiagnosticsWidget>()->model()->rowCount(),
             int(fits.plan->diagnostics.size()));
    label = planStatusLabel(window);
    QVERIFY(label);
    QVERIFY2(showsUpTo(*label, peakWords), qPrintable(window.statusText()));
}

// Out of memory is the prediction's diagnostic, not the plan's: What changed
// lists it when it appears or goes with the prediction (it said
// "Diagnostics appeared (0)" as a what-if edit made the step fit).
void TestPredictionViews::whatChangedListsThePredictionsDiagnostics() {
    const PlanResult plan = computePlanResult(sample("llama3_8b_hsdp_2x4.json"));
    auto small = std::make_shared<Cluster>(readClusterPreset("h100-dgx"));
    small->device.memoryBytes = int64_t(4) << 30;  // the 8B step peaks far above
    PlanResult over = plan, fits = plan;
    over.prediction = predictPlan(plan, small);
    fits.prediction =
        predictPlan(plan, std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
    auto names = [](const std::vector<PlanDiffRow>& rows) {
        QStringList out;
        for (const PlanDiffRow& row : rows) out << row.item;
        return out.join(QStringLiteral(", "));
    };
    const PlanDiffTable better =
        computePlanChange(over, fits, CurrentSide::After, QStringLiteral("a"), QStringLiteral("b"));
    QVERIFY2(names(better.rows(PlanDiffSection::DiagnosticsDisappeared))
                 .contains(QStringLiteral("error out-of-memory")),
             qPrintable(names(better.rows(PlanDiffSection::DiagnosticsDisappeared))));
    QVERIFY(better.rows(PlanDiffSection::DiagnosticsAppeared).empty());
    const PlanDiffTable worse =
        computePlanChange(fits, over, CurrentSide::After, QStringLiteral("a"), QStringLiteral("b"));
    QVERIFY2(names(worse.rows(PlanDiffSection::DiagnosticsAppeared))
                 .contains(QStringLiteral("error out-of-memory")),
             qPrintable(names(worse.rows(PlanDiffSection::DiagnosticsAppeared))));
}

QTEST_MAIN(TestPredictionViews)
#include "tst_prediction_views.moc"
