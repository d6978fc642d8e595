// SPDX-License-Identifier: Apache-2.0
// The run views over a real run of the teaching sample (rank threads over
// Gloo): the trace timeline (one row per rank, one bar per event, level of
// detail on a synthetic 100,000-event trace, click to select), the step
// panel (a caption per step naming what the trace recorded, navigation) and
// the traffic figures (sums over the trace's events). A reference run of
// the diagnostics tour: the step that gathers a param wrong says so and is
// marked, in the step panel and on the trace's bars.
#include <QDir>
#include <QLabel>
#include <QPainter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>
#include <map>
#include <set>

#include "derived/run/run_steps.h"
#include "derived/run/traffic_stats.h"
#include "painting/trace_palette.h"
#include "run/optimizer_step.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_sample.h"
#include "samples.h"
#include "steps/step_widget.h"
#include "trace/trace_bars.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "wrong_rows/wrong_rows_widget.h"

using namespace hsdp;
using hsdp::testing::runScenarioFile;
using hsdp::testing::sample;

namespace {

// `rows` ranks, each with back-to-back events of varying length: a run far
// denser than the pixels of an overview.
std::shared_ptr<const TraceTimeline> syntheticTimeline(int rows, int events) {
    auto run = std::make_shared<RunResult>();
    run->worldSize = rows;
    const int perRow = events / rows;
    for (int r = 0; r < rows; ++r) {
        double t = r * 3.0;
        for (int i = 0; i < perRow; ++i) {
            TraceEvent e;
            e.seq = i;
            e.rank = r;
            e.op = i % 3 ? "broadcast" : "all_gather";
            e.label.phase = i % 3 ? "replica-broadcast" : "gather";
            e.groupRanks = {r};
            e.startUs = t;
            e.endUs = t + 5 + (i * 7 + r) % 40;
            t = e.endUs + 1 + (i % 5);
            run->trace.events.push_back(e);
        }
    }
    return std::make_shared<const TraceTimeline>(run, rows);
}

bool darkNear(const QImage& image, QPointF point) {
    for (int dx = -2; dx <= 2; ++dx)
        for (int dy = -2; dy <= 2; ++dy) {
            QPoint p = point.toPoint() + QPoint(dx, dy);
            if (image.rect().contains(p) && qGray(image.pixel(p)) < 60) return true;
        }
    return false;
}

int paramIndex(const RunData& run, const std::string& name) {
    for (const ParamRunResult& p : run.run->params)
        if (p.name == name) return p.index;
    return -1;
}

const ParamRunResult* paramResult(const RunData& run, int param) {
    for (const ParamRunResult& p : run.run->params)
        if (p.index == param) return &p;
    return nullptr;
}

// The first step of `phase` that moves `param`, or -1.
int stepMoving(const std::vector<RunStep>& steps, const RunData& run, const std::string& phase,
               int param) {
    for (size_t k = 0; k < steps.size(); ++k) {
        const TraceEvent& e = run.run->trace.events[size_t(steps[k].events.front())];
        const auto& params = e.label.params;
        if (e.label.phase == phase &&
            std::find(params.begin(), params.end(), param) != params.end())
            return int(k);
    }
    return -1;
}

int pixelsOf(const QImage& image, const QColor& colour, const QRect& area) {
    int count = 0;
    const QRect inside = area.intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            count += QColor(image.pixel(x, y)) == colour;
    return count;
}

int pixelsOf(const QImage& image, const QColor& colour) {
    return pixelsOf(image, colour, image.rect());
}

// The red of the rows a run got wrong: what marks a step whose result is wrong.
QColor wrongRed() {
    return WrongRowsWidget::wrongColor();
}

}  // namespace

class TestTraceViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void timelineHasOneRowPerRankAndOneItemPerEvent();
    void overviewPaintsAtMostOneBarPerPixelPerRow();
    void zoomedInEveryEventIsItsOwnBar();
    void clickingABarSelectsItsCollectiveOnEveryParticipant();
    void everyStepsCaptionNamesOpRanksAndParams();
    void stepNavigationDrivesTheSelection();
    void trafficFiguresAreSumsOverTheTrace();
    void withoutARunTheViewsAreEmpty();
    void computeSlicesHaveTheirOwnColoursAndSayWhatTheyDid();
    void everyColumnShowsWhatCoversMostOfItAtEveryZoom();
    void zoomingOutStopsAtTheRun();
    void referenceGatherOutOfMeshOrderSaysItEndsUpWrong();
    void aShrunkRunsWrongRowsSayTheyAreShrunk();
    void traceMarksEveryParticipantOfAWrongStep();
    void aFailedRunIsMarkedWhereItStopped();
    void groupTitlesStayInTheirBands();
    void renderImages();

private:
    RunData teaching_;
    RunData tourCorrected_, tourReference_;
};

void TestTraceViews::initTestCase() {
    teaching_ = runScenarioFile(sample(QStringLiteral("teaching_2x2.json")));
    QVERIFY(teaching_.isValid());
    QVERIFY2(teaching_.run->verified, teaching_.run->error.c_str());
    QVERIFY(!teaching_.run->trace.events.empty());
    tourCorrected_ = runScenarioFile(sample(QStringLiteral("diagnostics_tour.json")));
    tourReference_ =
        runScenarioFile(sample(QStringLiteral("diagnostics_tour.json")), RunMode::Reference);
    QVERIFY(tourCorrected_.isValid() && tourReference_.isValid());
}

void TestTraceViews::timelineHasOneRowPerRankAndOneItemPerEvent() {
    const Trace& trace = teaching_.run->trace;
    TraceTimeline timeline(teaching_.run, teaching_.run->worldSize,
                           &teaching_.plan.scenario->meshes.front());
    QCOMPARE(timeline.rowCount(), teaching_.plan.plan->worldSize);
    std::multiset<int> seen;
    for (int r = 0; r < timeline.rowCount(); ++r) {
        const auto& row = timeline.row(r);
        QCOMPARE(row.rank, r);
        QVERIFY(std::is_sorted(row.start.begin(), row.start.end()));
        for (int e : row.events) {
            QCOMPARE(timeline.event(e).rank, r);
            seen.insert(e);
        }
    }
    QCOMPARE(seen.size(), trace.events.size());
    QCOMPARE(std::set<int>(seen.begin(), seen.end()).size(), trace.events.size());
    // The replicas (outermost mesh dim) are the row groups.
    QCOMPARE(static_cast<int64_t>(timeline.rowGroups().size()),
             teaching_.plan.scenario->meshes.front().shape.front());
}

void TestTraceViews::overviewPaintsAtMostOneBarPerPixelPerRow() {
    auto timeline = syntheticTimeline(50, 100000);
    QCOMPARE(timeline->eventCount(), 100000);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setTimeline(timeline);
    const QSize size(1600, 1000);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    const int bars = canvas.paintTimeline(painter, size);
    const double width = canvas.axisFor(size).width;
    QVERIFY(bars > 0);
    QVERIFY2(bars <= timeline->rowCount() * width,
             qPrintable(QStringLiteral("%1 bars > %2 rows x %3 px")
                            .arg(bars)
                            .arg(timeline->rowCount())
                            .arg(width)));
    // Each row's bars are disjoint pixel ranges inside the plot.
    std::vector<BarSpan> spans;
    const TimeAxis axis = canvas.axisFor(size);
    for (int r = 0; r < timeline->rowCount(); ++r) {
        rowBars(*timeline, r, axis, TraceColouring::Phase, spans);
        int count = 0;
        for (size_t i = 0; i < spans.size(); ++i) {
            QVERIFY(spans[i].x1 > spans[i].x0);
            if (i) QVERIFY(spans[i].x0 >= spans[i - 1].x1);
            count += spans[i].count;
        }
        QCOMPARE(count, static_cast<int>(timeline->row(r).events.size()));  // nothing lost
    }
}

void TestTraceViews::zoomedInEveryEventIsItsOwnBar() {
    auto timeline = syntheticTimeline(8, 4000);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setTimeline(timeline);
    const auto& row = timeline->row(0);
    canvas.setWindow(row.start[100] + 0.01, row.end[110] - 0.01);  // 11 events over ~1400 px
    std::vector<BarSpan> spans;
    rowBars(*timeline, 0, canvas.axisFor(QSize(1600, 1000)), TraceColouring::Op, spans);
    auto [first, last] = timeline->visible(0, canvas.windowStart(), canvas.windowEnd());
    QCOMPARE(static_cast<int>(spans.size()), last - first);
    for (const BarSpan& span : spans) QCOMPARE(span.count, 1);
}

void TestTraceViews::clickingABarSelectsItsCollectiveOnEveryParticipant() {
    PlanSelection selection;
    TraceWidget view(&selection);
    view.setRun(teaching_);
    view.resize(1200, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    TraceCanvas* canvas = view.canvas();
    const Trace& trace = teaching_.run->trace;
    for (int index = 0; index < static_cast<int>(trace.events.size()); ++index) {
        const TraceEvent& e = trace.events[static_cast<size_t>(index)];
        const double pad = (e.endUs - e.startUs) * 0.5 + 1;
        canvas->setWindow(e.startUs - pad, e.endUs + pad);
        selection.clear();
        QTest::mouseClick(canvas, Qt::LeftButton, {},
                          canvas->eventCentre(index, canvas->size()).toPoint());
        if (isCompute(e)) {  // no collective: the rank and the params it computed on
            QCOMPARE(selection.collective(), int64_t(-1));
            QCOMPARE(selection.ranks(), std::vector<int>{e.rank});
            QCOMPARE(selection.params(), e.label.params);
            continue;
        }
        QCOMPARE(selection.collective(), e.seq);
        QCOMPARE(selection.ranks(), e.groupRanks);
        QCOMPARE(selection.params(), e.label.params);
        QCOMPARE(canvas->highlightedSeq(), e.seq);
    }
    // Every participant's bar carries the highlight frame at the fitted zoom.
    canvas->fit();
    const TraceEvent& e = trace.events.front();
    selection.selectCollective(e.seq, e.groupRanks, e.label.params);
    QImage image = canvas->renderImage(canvas->size());
    const TimeAxis axis = canvas->axisFor(canvas->size());
    for (int other : canvas->timeline()->eventsOfSeq(e.seq)) {
        const TraceEvent& o = trace.events[static_cast<size_t>(other)];
        double x0 = axis.x(o.startUs), x1 = axis.x(o.endUs);
        if (x1 - x0 < 6) x0 = (x0 + x1) / 2 - 3;
        const int row = canvas->timeline()->rowOfRank(o.rank);
        const double y =
            canvas->rowTop(row, canvas->size()) + canvas->rowHeight(canvas->size()) / 2;
        QVERIFY2(darkNear(image, QPointF(x0, y)),
                 qPrintable(QStringLiteral("rank %1").arg(o.rank)));
    }
}

void TestTraceViews::everyStepsCaptionNamesOpRanksAndParams() {
    PlanSelection selection;
    StepWidget panel(&selection);
    panel.setRun(teaching_);
    const Trace& trace = teaching_.run->trace;
    std::set<int64_t> seqs;  // the collectives: a compute span is no step
    for (const TraceEvent& e : trace.events)
        if (!isCompute(e)) seqs.insert(e.seq);
    QCOMPARE(static_cast<size_t>(panel.stepCount()), seqs.size());
    const Scenario& scenario = *teaching_.plan.scenario;
    for (int k = 0; k < panel.stepCount(); ++k) {
        panel.setStep(k);
        const RunStep& step = panel.steps()[static_cast<size_t>(k)];
        const TraceEvent& e = trace.events[static_cast<size_t>(step.events.front())];
        const StepCaption caption = panel.caption();
        const QString text = caption.headline + QLatin1Char(' ') + caption.why;
        QVERIFY2(caption.headline.startsWith(QStringLiteral("%1 #%2 of group ")
                                                 .arg(QString::fromStdString(e.op))
                                                 .arg(step.groupSeq)) &&
                     caption.headline.contains(QStringLiteral("(seq %1)").arg(step.seq)),
                 qPrintable(text));
        QVERIFY2(text.contains(ranksText(e.groupRanks)), qPrintable(text));
        QVERIFY(!e.label.params.empty());
        for (int p : e.label.params)
            QVERIFY2(caption.why.contains(
                         QString::fromStdString(scenario.params[static_cast<size_t>(p)].name)),
                     qPrintable(text));
        const QString dim = QString::fromStdString(
            scenario.meshes.front().dimNames[static_cast<size_t>(e.label.meshDim)]);
        QVERIFY2(caption.why.contains(dim), qPrintable(text));
        // Every participant recorded the same collective.
        for (int other : step.events) {
            QCOMPARE(trace.events[static_cast<size_t>(other)].seq, step.seq);
            QCOMPARE(trace.events[static_cast<size_t>(other)].groupRanks, e.groupRanks);
        }
        if (e.label.phase == "gather") {
            QVERIFY2(caption.why.contains(QStringLiteral("all-gathers")), qPrintable(text));
            QVERIFY2(caption.why.contains(QStringLiteral("Newton–Schulz")), qPrintable(text));
        } else {
            // A broadcast names its root: the one member Gloo's tree has send bytes.
            QCOMPARE(e.op, std::string("broadcast"));
            int root = -1;
            for (int other : step.events)
                if (trace.events[static_cast<size_t>(other)].bytes > 0)
                    root = trace.events[static_cast<size_t>(other)].rank;
            QVERIFY2(
                caption.why.contains(QRegularExpression(QStringLiteral("^Rank %1\\b").arg(root))),
                qPrintable(text));
            const QString word = e.label.phase == "update-broadcast" ? QStringLiteral("update")
                                                                     : QStringLiteral("replicas");
            QVERIFY2(caption.why.contains(word), qPrintable(text));
            // The root is in the owner replica, or forwards what the owner sent it.
            if (e.label.phase == "replica-broadcast") {
                const Plan& plan = *teaching_.plan.plan;
                const Group* group = nullptr;
                for (const Group& g : plan.groups)
                    if (g.id == e.label.group) group = &g;
                QVERIFY(group);
                const Batch& batch = group->batches[static_cast<size_t>(e.label.batch)];
                const Coord coord = *scenario.meshes.front().coordinateOf(root);
                const bool owner = reducedReplicateCoord(*group, batch, coord) ==
                                   batch.owner.at(e.label.params.front());
                QCOMPARE(caption.why.contains(QStringLiteral("forwards")), !owner);
            }
        }
        QCOMPARE(selection.collective(), step.seq);
        QCOMPARE(selection.ranks(), e.groupRanks);
    }
}

void TestTraceViews::stepNavigationDrivesTheSelection() {
    PlanSelection selection;
    StepWidget panel(&selection);
    panel.setRun(teaching_);
    const auto& steps = panel.steps();
    QVERIFY(steps.size() > 3);
    for (size_t i = 1; i < steps.size(); ++i) QVERIFY(steps[i - 1].readyUs <= steps[i].readyUs);
    QCOMPARE(panel.currentStep(), -1);
    panel.next();
    QCOMPARE(panel.currentStep(), 0);
    QCOMPARE(selection.collective(), steps[0].seq);
    panel.next();
    panel.next();
    QCOMPARE(panel.currentStep(), 2);
    QCOMPARE(selection.collective(), steps[2].seq);
    panel.previous();
    QCOMPARE(selection.collective(), steps[1].seq);
    panel.last();
    QCOMPARE(panel.currentStep(), panel.stepCount() - 1);
    QCOMPARE(selection.collective(), steps.back().seq);
    QCOMPARE(panel.positionText(),
             QStringLiteral("%1 of %1 collectives · %2 (seq %3)")
                 .arg(panel.stepCount())
                 .arg(QString::fromStdString(collectiveName(steps.back(), teaching_.run->trace)))
                 .arg(steps.back().seq));
    panel.next();  // stays on the last
    QCOMPARE(panel.currentStep(), panel.stepCount() - 1);
    panel.first();
    QCOMPARE(selection.collective(), steps.front().seq);
    panel.previous();
    QCOMPARE(panel.currentStep(), 0);
    // A collective picked elsewhere (a trace bar) moves the step.
    const TraceEvent& e = teaching_.run->trace.events[static_cast<size_t>(steps[5].events.front())];
    selection.selectCollective(e.seq, e.groupRanks, e.label.params);
    QCOMPARE(panel.currentStep(), 5);
    // Play walks forward on its timer.
    panel.setSpeed(50);
    panel.setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(panel.currentStep() >= 7, 3000);
    panel.setPlaying(false);
    QVERIFY(!panel.isPlaying());
}

void TestTraceViews::trafficFiguresAreSumsOverTheTrace() {
    PlanSelection selection;
    TrafficWidget view(&selection);
    view.setRun(teaching_);
    const Trace& trace = teaching_.run->trace;
    const TrafficStats& stats = view.stats();
    int64_t bytes = 0;
    std::map<std::string, int64_t> opBytes;
    std::map<int, int64_t> dimBytes;
    std::set<int64_t> seqs;
    for (const TraceEvent& e : trace.events) {
        if (isCompute(e)) continue;  // traffic is the collectives'
        bytes += e.bytes;
        opBytes[e.op] += e.bytes;
        dimBytes[e.label.meshDim] += e.bytes;
        seqs.insert(e.seq);
    }
    QCOMPARE(stats.total.wireBytes, bytes);
    QCOMPARE(stats.total.wireBytes, teaching_.run->bytes);
    QCOMPARE(stats.total.events, teaching_.run->rankEvents);
    QCOMPARE(stats.total.collectives, static_cast<int64_t>(seqs.size()));
    QCOMPARE(stats.byOp.size(), opBytes.size());
    for (const TrafficRow& row : stats.byOp)
        QCOMPARE(row.wireBytes, opBytes[row.key.toStdString()]);
    int64_t dimTotal = 0;
    for (const TrafficRow& row : stats.byDim) dimTotal += row.wireBytes;
    QCOMPARE(dimTotal, bytes);
    QCOMPARE(stats.byDim.size(), dimBytes.size());
    double seconds = 0, size = 0, bus = 0;
    for (const RunStep& step : view.steps()) {
        const TraceEvent& e = trace.events[static_cast<size_t>(step.events.front())];
        const auto n = static_cast<int>(e.groupRanks.size());
        double sent = 0;
        for (int i : step.events)
            sent += static_cast<double>(trace.events[static_cast<size_t>(i)].bytes);
        // S: the participants of a ring all-gather or tree broadcast send (n-1)·S together.
        QCOMPARE(collectiveSize(step, trace) * (n - 1), sent);
        seconds += step.runUs() * 1e-6;
        size += collectiveSize(step, trace);
        bus += collectiveSize(step, trace) * (e.op == "broadcast" ? 1.0 : (n - 1.0) / n);
    }
    QCOMPARE(stats.total.seconds, seconds);
    QCOMPARE(stats.total.sizeBytes, size);
    QCOMPARE(stats.total.algbw(), size / seconds);
    QCOMPARE(stats.total.busbw(), bus / seconds);
    // The slowest table really holds the longest collectives, longest first.
    QVERIFY(!stats.slowest.empty());
    double longest = 0;
    for (const RunStep& step : view.steps()) longest = std::max(longest, step.runUs());
    QCOMPARE(view.steps()[static_cast<size_t>(stats.slowest.front())].runUs(), longest);
    QCOMPARE(view.slowestTable()->rowCount(), static_cast<int>(stats.slowest.size()));
}

void TestTraceViews::withoutARunTheViewsAreEmpty() {
    PlanSelection selection;
    TraceWidget trace(&selection);
    StepWidget steps(&selection);
    TrafficWidget traffic(&selection);
    for (int round = 0; round < 2; ++round) {  // before any run, and after one is dropped
        trace.setRun(RunData{});
        steps.setRun(RunData{});
        traffic.setRun(RunData{});
        QCOMPARE(trace.canvas()->timeline(), nullptr);
        QCOMPARE(steps.stepCount(), 0);
        steps.next();
        QCOMPARE(steps.currentStep(), -1);
        QCOMPARE(traffic.stats().total.collectives, 0);
        QVERIFY(!trace.renderImage(QSize(400, 200)).isNull());
        QVERIFY(trace.findChild<QLabel*>(QStringLiteral("stepNote"))->text().isEmpty());
        trace.setRun(teaching_);
        steps.setRun(teaching_);
        traffic.setRun(teaching_);
        QVERIFY(steps.stepCount() > 0);
        // Above the axis: the trace is the step, a part of the run's wall
        // time (the status bar's): an axis starting late read as a wrong picture.
        const QString note = trace.findChild<QLabel*>(QStringLiteral("stepNote"))->text();
        QVERIFY2(
            note.contains(QStringLiteral("The optimizer step: %1 wall of the whole run's %2")
                              .arg(QString::fromStdString(durationText(teaching_.run->stepSeconds)),
                                   QString::fromStdString(durationText(teaching_.run->seconds)))),
            qPrintable(note));
    }
}

// Renders every view; with HSDP_TRACE_SHOTS=DIR set, writes PNGs there (the
// 70B sample too) to look at.
void TestTraceViews::computeSlicesHaveTheirOwnColoursAndSayWhatTheyDid() {
    TraceTimeline timeline(teaching_.run, teaching_.run->worldSize);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setRun(teaching_);
    const auto& ops = traceOpNames();
    const QStringList kinds{"pack", "unpack", "newton_schulz", "update"};
    // Four categories of their own, before "other", each its own colour.
    std::set<QRgb> colours;
    for (int c = 0; c < int(ops.size()); ++c)
        colours.insert(traceCategoryColour(c, TraceColouring::Op).rgb());
    QCOMPARE(colours.size(), ops.size());
    QCOMPARE(ops.back(), QStringLiteral("other"));
    const Trace& trace = teaching_.run->trace;
    std::set<QString> seen;
    int placeless = 0;
    for (int i = 0; i < timeline.eventCount(); ++i) {
        const TraceEvent& e = trace.events[size_t(i)];
        if (!isCompute(e)) continue;
        const QString op = QString::fromStdString(e.op);
        seen.insert(op);
        QCOMPARE(ops[size_t(timeline.categoryOf(i, TraceColouring::Op))], op);
        // Coloured as its kind in both colourings, never as its phase's wire.
        const auto& phases = tracePhaseNames();
        const int phaseCategory = timeline.categoryOf(i, TraceColouring::Phase);
        QCOMPARE(phases[size_t(phaseCategory)], op);
        QCOMPARE(
            traceCategoryColour(phaseCategory, TraceColouring::Phase),
            traceCategoryColour(timeline.categoryOf(i, TraceColouring::Op), TraceColouring::Op));
        QVERIFY(timeline.hasCategory(phaseCategory, TraceColouring::Phase));
        for (const char* wire : {"gather", "update-broadcast", "replica-broadcast", "tp"}) {
            const int w =
                int(std::find(phases.begin(), phases.end(), QString(wire)) - phases.begin());
            QVERIFY(traceCategoryColour(w, TraceColouring::Phase) !=
                    traceCategoryColour(phaseCategory, TraceColouring::Phase));
        }
        const QString tip = canvas.toolTipFor(i);
        QVERIFY2(!tip.contains(QStringLiteral("sent")), qPrintable(tip));
        // Only the places that apply: no "-1" for a param's local compute.
        QVERIFY2(!tip.contains(QStringLiteral("-1")), qPrintable(tip));
        if (e.label.group >= 0)
            QVERIFY2(tip.contains(QStringLiteral("group %1").arg(e.label.group)), qPrintable(tip));
        placeless += e.label.group < 0 && e.label.batch < 0;
        const QString param = QString::fromStdString(
            teaching_.plan.scenario->params[size_t(e.label.params.front())].name);
        QVERIFY2(tip.contains(param), qPrintable(tip));
        if (e.op == "newton_schulz")
            QVERIFY2(tip.contains(QStringLiteral("Newton–Schulz")), qPrintable(tip));
    }
    QCOMPARE(seen, (std::set<QString>(kinds.begin(), kinds.end())));
    QVERIFY(placeless > 0);  // the teaching sample's rope.cache computes outside any group
}

// A gather, then back-to-back compute and broadcasts far shorter than a
// pixel: each column must show the category covering most of it, however
// far out the view is zoomed (once the whole row read as the gather).
void TestTraceViews::everyColumnShowsWhatCoversMostOfItAtEveryZoom() {
    auto run = std::make_shared<RunResult>();
    run->worldSize = 2;
    const char* ops[] = {"broadcast", "newton_schulz", "all_gather", "update"};
    const char* phases[] = {"update-broadcast", "update-broadcast", "gather", "update-broadcast"};
    uint32_t random = 7;
    auto next = [&random] { return random = random * 1664525u + 1013904223u; };
    for (int r = 0; r < 2; ++r) {
        double t = 0;
        auto add = [&](int kind, double length) {
            TraceEvent e;
            e.seq = kind == 1 || kind == 3 ? -int64_t(run->trace.events.size()) - 1 : 0;
            e.rank = r;
            e.op = ops[kind];
            e.label.phase = phases[kind];
            e.startUs = t;
            e.endUs = t + length;
            t = e.endUs + (r == 1 ? double(next() % 3) : 0.0);  // row 1: gaps too
            run->trace.events.push_back(e);
        };
        add(2, 720000);  // the long gather first
        for (int i = 0; i < 4000; ++i) add(int(next() % 4), 300 + double(next() % 4000));
    }
    auto timeline = std::make_shared<const TraceTimeline>(run, 2);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setTimeline(timeline);
    const QSize size(1440, 600);
    for (double zoom : {1.0, 4.0, 60.0}) {
        canvas.fit();
        for (int z = 1; z < zoom; z *= 2) canvas.zoomIn();
        const TimeAxis axis = canvas.axisFor(size);
        for (int r = 0; r < 2; ++r) {
            std::vector<BarSpan> spans;
            rowBars(*timeline, r, axis, TraceColouring::Phase, spans);
            std::map<int, int> shown;  // column -> category
            for (const BarSpan& span : spans)
                for (int x = span.x0; x < span.x1; ++x)
                    shown[x] = timeline->categoryOf(span.event, TraceColouring::Phase);
            // Brute force: each column's cover per category.
            std::map<int, std::map<int, double>> cover;
            const auto& row = timeline->row(r);
            for (size_t k = 0; k < row.start.size(); ++k) {
                const double xs = std::max(axis.left, axis.x(row.start[k]));
                const double xe = std::min(axis.left + axis.width, axis.x(row.end[k]));
                if (xe <= xs) continue;
                const int category = timeline->categoryOf(row.events[k], TraceColouring::Phase);
                for (int x = int(std::floor(xs)); x < xe; ++x)
                    cover[x][category] += std::min<double>(xe, x + 1) - std::max<double>(xs, x);
            }
            int checked = 0;
            for (const auto& [x, byCategory] : cover) {
                std::vector<std::pair<double, int>> ranked;
                for (const auto& [category, weight] : byCategory)
                    ranked.push_back({weight, category});
                std::sort(ranked.rbegin(), ranked.rend());
                if (ranked.size() > 1 && ranked[0].first - ranked[1].first < 1e-6)
                    continue;  // a tie
                QVERIFY2(shown.count(x), qPrintable(QStringLiteral("column %1 empty").arg(x)));
                QVERIFY2(
                    shown[x] == ranked[0].second,
                    qPrintable(QStringLiteral("zoom %1, row %2, column %3: shows %4, mostly %5")
                                   .arg(zoom)
                                   .arg(r)
                                   .arg(x)
                                   .arg(tracePhaseNames()[size_t(shown[x])])
                                   .arg(tracePhaseNames()[size_t(ranked[0].second)])));
                ++checked;
            }
            QVERIFY(checked > 100);
        }
    }
    // Zoomed out, the gather holds only its own first tenth or so of the row.
    canvas.fit();
    const TimeAxis axis = canvas.axisFor(size);
    std::vector<BarSpan> spans;
    rowBars(*timeline, 0, axis, TraceColouring::Phase, spans);
    const int gather = int(
        std::find(tracePhaseNames().begin(), tracePhaseNames().end(), QStringLiteral("gather")) -
        tracePhaseNames().begin());
    const double gatherEnds = axis.x(720000);
    for (const BarSpan& span : spans)
        if (timeline->categoryOf(span.event, TraceColouring::Phase) == gather)
            QVERIFY2(span.x1 <= gatherEnds + 2 || span.x1 - span.x0 < 3,
                     qPrintable(QStringLiteral("a gather bar to x=%1; the gather ends at x=%2")
                                    .arg(span.x1)
                                    .arg(gatherEnds)));
}

void TestTraceViews::zoomingOutStopsAtTheRun() {
    auto timeline = syntheticTimeline(4, 400);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setTimeline(timeline);
    const double length = timeline->endUs() - timeline->beginUs();
    const double slack = length * 0.0101;
    for (int i = 0; i < 20; ++i) canvas.zoomOut();
    QVERIFY(canvas.windowStart() >= timeline->beginUs() - slack);
    QVERIFY(canvas.windowEnd() <= timeline->endUs() + slack);
    canvas.zoomIn();
    canvas.zoomIn();
    for (int i = 0; i < 50; ++i) canvas.panBy(-0.5);
    QVERIFY2(canvas.windowStart() >= timeline->beginUs() - slack,
             qPrintable(QString::number(canvas.windowStart())));
    for (int i = 0; i < 50; ++i) canvas.panBy(0.5);
    QVERIFY(canvas.windowEnd() <= timeline->endUs() + slack);
    QVERIFY(canvas.windowEnd() - canvas.windowStart() < length / 2);  // still zoomed in
    // Every time label is whole inside the canvas at any width (the last
    // one read "0.9 m", cut at the right edge).
    const double t0 = timeline->beginUs(), tick = 100;  // a window ending on a tick
    canvas.setWindow(std::ceil(t0 / tick) * tick, std::ceil(t0 / tick) * tick + 10 * tick);
    for (int width = 360; width <= 1600; width += 13) {
        const QSize size(width, 300);
        const auto labels = canvas.axisLabels(size);
        QVERIFY(!labels.empty());
        for (const auto& [box, text] : labels) QVERIFY2(box.right() <= width, qPrintable(text));
    }
}

// out.reversed_ranks lives on a mesh whose shard dim lists its ranks
// backwards (shard-rank-order): the reference all-gathers in process-group
// order and puts each rank's rows where the other's belong. That step must
// not be captioned "every rank of the group ends up with the full tensors":
// it says the param ends up wrong, shows what verification found, and is
// marked in the wrong red (badge, text, the wrong ranks in its list). The
// same step of the corrected run is neither.
void TestTraceViews::referenceGatherOutOfMeshOrderSaysItEndsUpWrong() {
    const int p = paramIndex(tourReference_, "out.reversed_ranks");
    QVERIFY(p >= 0);
    const ParamRunResult* result = paramResult(tourReference_, p);
    QCOMPARE(result->gather, GatherVerdict::Mismatch);
    QCOMPARE(paramResult(tourCorrected_, p)->gather, GatherVerdict::Exact);
    const QString promise =
        QStringLiteral("so every rank of the group ends up with the full tensors");
    const QSize size(1200, 420);
    PlanSelection selection;
    StepWidget panel(&selection);

    panel.setRun(tourCorrected_);
    int k = stepMoving(panel.steps(), tourCorrected_, "gather", p);
    QVERIFY(k >= 0);
    panel.setStep(k);
    QVERIFY2(panel.caption().why.contains(promise), qPrintable(panel.caption().why));
    QCOMPARE(pixelsOf(panel.renderImage(size), wrongRed()), 0);

    panel.setRun(tourReference_);
    k = stepMoving(panel.steps(), tourReference_, "gather", p);
    QVERIFY(k >= 0);
    panel.setStep(k);
    const RunStep& step = panel.steps()[size_t(k)];
    const TraceEvent& e = tourReference_.run->trace.events[size_t(step.events.front())];
    std::vector<int> wrong;  // the group's ranks whose gathered copy verification found wrong
    QStringList found;
    for (const Mismatch& m : result->mismatches)
        if (m.what == "gather" &&
            std::find(e.groupRanks.begin(), e.groupRanks.end(), m.rank) != e.groupRanks.end()) {
            if (std::find(wrong.begin(), wrong.end(), m.rank) == wrong.end())
                wrong.push_back(m.rank);
            found << QString::fromStdString(m.text);
        }
    std::sort(wrong.begin(), wrong.end());
    QVERIFY(!wrong.empty());
    const QString why = panel.caption().why;
    QVERIFY2(!why.contains(QStringLiteral("ends up with the full tensors")), qPrintable(why));
    QVERIFY2(
        why.contains(QStringLiteral("but out.reversed_ranks (%1) ends up wrong: see Wrong rows")
                         .arg(ranksText(wrong))),
        qPrintable(why));
    // What verification found, in the run result's own words, on the panel.
    bool shown = false;
    for (const QLabel* label : panel.findChildren<QLabel*>())
        shown = shown || (!label->isHidden() && label->text().contains(found.front()));
    QVERIFY2(shown, qPrintable(found.front()));
    // Marked: the badge and that text in the wrong red, and each wrong rank's line.
    const QImage image = panel.renderImage(size);
    QVERIFY2(pixelsOf(image, wrongRed()) > 500,
             qPrintable(QString::number(pixelsOf(image, wrongRed()))));
    const QTreeWidget* list = panel.participants();
    QCOMPARE(list->topLevelItemCount(), int(step.ranks.size()));
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = list->topLevelItem(i);
        const bool isWrong = std::binary_search(wrong.begin(), wrong.end(), step.ranks[size_t(i)]);
        QCOMPARE(item->text(0).contains(QStringLiteral("✗")), isWrong);
        QCOMPARE(item->foreground(0).color() == wrongRed(), isWrong);
    }
}

// A shrunk reference run's wrong rows are rows of its shrunk tensors, and
// the step's fault text says so: "rows 16..19" of a shrunk q_proj read as
// rows of the real weight.
void TestTraceViews::aShrunkRunsWrongRowsSayTheyAreShrunk() {
    RunData data;
    data.plan = computePlanResult(sample(QStringLiteral("diagnostics_tour.json")));
    const Scenario& s = *data.plan.scenario;
    const ShrinkDecision at2 = shrinkAtFactor(s, 2);
    RunOptions options;
    options.mode = RunMode::Reference;
    options.maxBytes = estimateRunBytes(s, *data.plan.plan, at2.paramShapes, at2.tpShapes);
    data.run = std::make_shared<const RunResult>(runPlan(s, *data.plan.plan, options));
    QVERIFY(data.run->shrink);
    PlanSelection selection;
    StepWidget panel(&selection);
    panel.setRun(data);
    int shown = 0;
    for (int k = 0; k < int(panel.steps().size()); ++k) {
        panel.setStep(k);
        if (panel.caption().fault.isEmpty()) continue;
        ++shown;
        QVERIFY2(panel.caption().fault.contains(
                     QStringLiteral("Rows are the shrunk run's: every dim about 1/%1")
                         .arg(data.run->shrink->factor)),
                 qPrintable(panel.caption().fault));
        // Its picture holds the whole fault text: once a long one was cut at
        // the picture's bottom.
        const QImage image = panel.picture(QSize(480, 240), QString::number(k));
        const auto* fault = panel.findChild<QLabel*>(QStringLiteral("fault"));
        QVERIFY(fault && !fault->isHidden());
        QVERIFY2(fault->height() >= fault->heightForWidth(fault->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(fault->height())
                                .arg(fault->heightForWidth(fault->width()))));
        QVERIFY(fault->geometry().bottom() < image.height());
    }
    QVERIFY(shown > 0);            // the reference run has wrong steps
    panel.setRun(tourReference_);  // of the real shapes: no such sentence
    for (int k = 0; k < int(panel.steps().size()); ++k) {
        panel.setStep(k);
        QVERIFY(!panel.caption().fault.contains(QStringLiteral("shrunk")));
    }
}

// On the trace, each participant's bar of that gather carries the mark (its
// lower part in the wrong red) and its tooltip says so; a step of the same
// run that verification found right carries none, nor does any bar of the
// corrected run.
// A run that failed (an injected transfer fault on rank 2): its trace showed
// rank 2's row ending in an ordinary bar, and its last step told a success
// story. The trace marks the failing rank's row where it stopped (red, the
// error in the tooltip) and the last step says the run stopped there.
void TestTraceViews::aFailedRunIsMarkedWhereItStopped() {
    RunData failed;
    failed.plan = computePlanResult(sample(QStringLiteral("teaching_2x2.json")));
    RunOptions options;
    options.fault = FaultSpec{2, 3};
    failed.run = std::make_shared<const RunResult>(
        runPlan(*failed.plan.scenario, *failed.plan.plan, options));
    QVERIFY(!failed.run->error.empty());
    QCOMPARE(failed.run->errorRank, 2);
    const QSize size(1400, 400);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setRun(failed);
    const QRect mark = canvas.failureMarkOf(size);
    QVERIFY(!mark.isEmpty());
    // On rank 2's row, just after its last recorded collective.
    double lastEnd = 0;
    for (const TraceEvent& e : failed.run->trace.events)
        if (e.rank == 2) lastEnd = std::max(lastEnd, e.endUs);
    const TimeAxis axis{canvas.windowStart(), canvas.windowEnd(), double(TraceCanvas::kGutter),
                        double(size.width() - TraceCanvas::kGutter - 8)};
    QVERIFY(std::abs(mark.left() - axis.x(lastEnd)) <= 2);
    const int row = canvas.timeline()->rowOfRank(2);
    QVERIFY(mark.top() <= canvas.rowTop(row, size) + 1 &&
            mark.bottom() >= canvas.rowTop(row, size) + canvas.rowHeight(size) / 2);
    const QImage image = canvas.renderImage(size);
    QCOMPARE(QColor(image.pixel(mark.center())), wrongRed());
    // Its words stay whole inside the canvas, even where the run stops at its right edge.
    const double start = canvas.windowStart(), end = canvas.windowEnd();
    for (const double shownEnd : {end, lastEnd + (lastEnd - start) * 0.01}) {
        canvas.setWindow(start, shownEnd);  // the second ends just past rank 2's mark
        const QRect label = canvas.failureLabelOf(size);
        QVERIFY(!label.isEmpty());
        QVERIFY2(label.left() >= 0 && label.right() < size.width(),
                 qPrintable(QStringLiteral("%1..%2 in %3")
                                .arg(label.left())
                                .arg(label.right())
                                .arg(size.width())));
    }
    canvas.setWindow(start, end);
    // A run that did not fail has no such mark.
    canvas.setRun(tourCorrected_);
    QVERIFY(canvas.failureMarkOf(size).isEmpty());

    StepWidget panel(&selection);
    panel.setRun(failed);
    panel.setStep(int(panel.steps().size()) - 1);
    const auto* fault = panel.findChild<QLabel*>(QStringLiteral("fault"));
    QVERIFY(fault && !fault->isHidden());
    QVERIFY2(fault->text().contains(QStringLiteral("The run stopped after this")) &&
                 fault->text().contains(QString::fromStdString(failed.run->error)),
             qPrintable(fault->text()));
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("faultBadge"))->text(),
             QStringLiteral("✗ run stopped after this"));  // it completed; the next failed
    panel.setStep(0);
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("fault"))->isHidden());

    // A cancelled run's partial trace says where it stops, over every row
    // (it read as a whole run), and has no failure mark.
    RunData cancelled = teaching_;
    auto result = std::make_shared<RunResult>(*teaching_.run);
    result->cancelled = true;
    result->error = "run cancelled (rank 0 before all_gather #2 of group [0,1])";
    result->errorRank = 0;
    cancelled.run = result;
    canvas.setRun(cancelled);
    QVERIFY(canvas.failureMarkOf(size).isEmpty());
    const auto x = canvas.cancelMarkX(size);
    QVERIFY(x);
    const QImage stopped = canvas.renderImage(size);
    int dark = 0;
    for (int y = TraceCanvas::kHeader + 30; y < size.height(); ++y)
        dark += qGray(stopped.pixel(int(std::round(*x)), y)) < 80;
    QVERIFY2(dark > (size.height() - TraceCanvas::kHeader - 30) / 3,
             qPrintable(QString::number(dark)));
    canvas.setRun(teaching_);
    QVERIFY(!canvas.cancelMarkX(size));
}

// The titles of the row groups ("dp_replicate=0") run up the gutter along
// their rows; in a short dock two bands' titles ran into each other. Each
// stays inside its band: no ink across the rule between two bands.
void TestTraceViews::groupTitlesStayInTheirBands() {
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setRun(teaching_);
    QVERIFY(canvas.timeline()->rowGroups().size() >= 2);
    // Cut short, the titles still tell the bands apart (both read "dp_replicate…").
    const QFontMetricsF metrics(canvas.font());
    const auto& groups = canvas.timeline()->rowGroups();
    const QString first = TraceCanvas::shortGroupTitle(groups[0].title, metrics, 60);
    const QString second = TraceCanvas::shortGroupTitle(groups[1].title, metrics, 60);
    QVERIFY2(first != second, qPrintable(first + QStringLiteral(" / ") + second));
    for (const int height : {170, 200, 240, 320}) {
        const QSize size(1200, height);
        const QImage image = canvas.renderImage(size);
        const int rule = int(canvas.rowTop(canvas.timeline()->rowGroups()[1].firstRow, size));
        int ink = 0;
        for (int y = rule - 2; y <= rule + 2; ++y)
            for (int x = 0; x < 16; ++x) ink += qGray(image.pixel(x, y)) < 140;
        QVERIFY2(ink == 0,
                 qPrintable(
                     QStringLiteral("height %1: %2 dark pixels at the rule").arg(height).arg(ink)));
    }
}

void TestTraceViews::traceMarksEveryParticipantOfAWrongStep() {
    const int p = paramIndex(tourReference_, "out.reversed_ranks");
    const QSize size(1400, 400);
    PlanSelection selection;
    TraceCanvas canvas(&selection);
    canvas.setRun(tourCorrected_);
    QCOMPARE(pixelsOf(canvas.renderImage(size), wrongRed()), 0);

    canvas.setRun(tourReference_);
    QVERIFY(pixelsOf(canvas.renderImage(size), wrongRed()) > 0);  // the whole run: some marks
    const std::vector<RunStep> steps = runSteps(tourReference_.run->trace);
    const int wrongStep = stepMoving(steps, tourReference_, "gather", p);
    // A step whose params all verified in the reference run too.
    int rightStep = -1;
    for (size_t k = 0; k < steps.size() && rightStep < 0; ++k) {
        const TraceEvent& e = tourReference_.run->trace.events[size_t(steps[k].events.front())];
        bool right = !e.label.params.empty();
        for (int q : e.label.params) {
            const ParamRunResult* r = paramResult(tourReference_, q);
            right = right && r && r->step == CheckVerdict::Exact &&
                    r->gather != GatherVerdict::Mismatch && r->gather != GatherVerdict::Error;
        }
        if (right) rightStep = int(k);
    }
    QVERIFY(wrongStep >= 0 && rightStep >= 0);
    for (const int k : {wrongStep, rightStep}) {
        const RunStep& step = steps[size_t(k)];
        // Zoomed onto the step, so each bar is wide and no neighbour's mark reaches it.
        const double pad = std::max(1.0, step.endUs - step.firstStartUs);
        canvas.setWindow(step.firstStartUs - pad, step.endUs + pad);
        const QImage image = canvas.renderImage(size);
        const double h = canvas.rowHeight(size);
        for (int index : step.events) {
            const QPointF centre = canvas.eventCentre(index, size);
            const QRect lower(int(centre.x()) - 1, int(centre.y()), 3, int(h / 2));
            const bool marked = pixelsOf(image, wrongRed(), lower) > 0;
            QVERIFY2(marked == (k == wrongStep),
                     qPrintable(QStringLiteral("step %1, rank %2")
                                    .arg(k)
                                    .arg(tourReference_.run->trace.events[size_t(index)].rank)));
            QCOMPARE(canvas.toolTipFor(index).contains(QStringLiteral("ends up wrong")),
                     k == wrongStep);
        }
    }
}

void TestTraceViews::renderImages() {
    const QString dir = qEnvironmentVariable("HSDP_TRACE_SHOTS");
    std::vector<std::pair<QString, RunData>> runs{{QStringLiteral("teaching"), teaching_}};
    if (!dir.isEmpty())
        runs.emplace_back(QStringLiteral("70b"),
                          runScenarioFile(sample(QStringLiteral("llama3_70b_hsdp_tp_2x4x4.json"))));
    for (auto& [name, run] : runs) {
        PlanSelection selection;
        TraceWidget trace(&selection);
        StepWidget steps(&selection);
        TrafficWidget traffic(&selection);
        trace.setRun(run);
        steps.setRun(run);
        traffic.setRun(run);
        steps.setStep(std::min(3, steps.stepCount() - 1));
        QImage images[] = {trace.renderImage(QSize(1400, 560)), steps.renderImage(QSize(900, 420)),
                           traffic.renderImage(QSize(1100, 800))};
        const char* kinds[] = {"trace", "steps", "traffic"};
        for (int i = 0; i < 3; ++i) {
            QVERIFY(!images[i].isNull());
            if (!dir.isEmpty())
                QVERIFY(images[i].save(
                    QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(name, kinds[i]))));
        }
        if (!dir.isEmpty()) {
            // Every step of the teaching run; the first of each phase and mesh dim of others.
            QFile captions(QDir(dir).filePath(name + QStringLiteral("-captions.txt")));
            QVERIFY(captions.open(QIODevice::WriteOnly));
            std::set<std::pair<std::string, int>> told;
            for (int k = 0; k < steps.stepCount(); ++k) {
                const RunStep& step = steps.steps()[static_cast<size_t>(k)];
                const TraceEvent& e =
                    run.run->trace.events[static_cast<size_t>(step.events.front())];
                if (!told.insert({e.label.phase, e.label.meshDim * 100 + e.label.tpTransition})
                         .second &&
                    name != QStringLiteral("teaching"))
                    continue;
                steps.setStep(k);
                captions.write((steps.positionText() + QStringLiteral(": ") +
                                steps.caption().headline + QStringLiteral("\n  ") +
                                steps.caption().why + QStringLiteral("\n"))
                                   .toUtf8());
            }
        }
        if (!dir.isEmpty()) {
            trace.setColouring(TraceColouring::Op);
            QVERIFY(trace.renderImage(QSize(1400, 560))
                        .save(QDir(dir).filePath(name + QStringLiteral("-trace-op.png"))));
        }
    }
}

QTEST_MAIN(TestTraceViews)
#include "tst_trace_views.moc"
