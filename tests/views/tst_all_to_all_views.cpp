// SPDX-License-Identifier: Apache-2.0
// The studio shows the all-to-all gather strategy (issue 21): the Steps
// captions of an all_to_all_v say who sends what to whom from the event's
// peer bytes; the buffer layout draws a rank's send and receive buffers as
// one block per peer with each param's segment inside, the receive side
// exactly what every peer's trace says it sent that rank; the Gather strategy
// view sets both strategies side by side for the selected group, costed off
// the GUI thread, each figure held against a run of that strategy; the
// what-if panel chooses the strategy. Pictures: hsdp-studio --screenshot DIR
// --run SCENARIO writes buffer-layout.png and gather-strategy.png.
#include <QComboBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <map>

#include "buffer_layout/buffer_layout_widget.h"
#include "buffer_layout/buffer_scene.h"
#include "cluster/reader.h"
#include "cost/gather_strategy_choice.h"
#include "derived/plan/plan_index.h"
#include "derived/run/buffer_layout.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/run_steps.h"
#include "derived/run/step_caption.h"
#include "derived/run/trace_timeline.h"
#include "derived/session.h"
#include "editing/edit_widget.h"
#include "gather_strategy/gather_strategy_widget.h"
#include "memory/memory_widget.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "runtime_test_util.h"
#include "samples.h"
#include "scenario/reader.h"
#include "studio_test_util.h"
#include "types/figures.h"
#include "window/main_window.h"

using namespace hsdp;
using hsdp::testing::eventOf;
using hsdp::testing::sample;

namespace {

const char* const kEven = HSDP_SOURCE_DIR "/tests/data/figures/even_2x4.json";

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

PlanResult planWith(const QString& path, GatherStrategyOption option) {
    Scenario scenario = readScenarioFile(path.toStdString());
    scenario.options.gatherStrategy = option;
    return computePlanResult(std::move(scenario), path);
}

RunData runWith(const QString& path, GatherStrategyOption option, RunOptions options = {}) {
    RunData data;
    data.plan = planWith(path, option);
    data.run =
        std::make_shared<const RunResult>(runPlan(*data.plan.scenario, *data.plan.plan, options));
    return data;
}

int memberIndex(const TraceEvent& e, int rank) {
    return int(std::find(e.groupRanks.begin(), e.groupRanks.end(), rank) - e.groupRanks.begin());
}

// The segments of `e`'s block for member `to`, offsets from that block's start.
std::vector<BufferSegment> sentTo(const TraceEvent& e, int to) {
    int64_t start = 0;
    const int q = memberIndex(e, to);
    for (int i = 0; i < q; ++i) start += e.label.peerBytes[size_t(i)];
    std::vector<BufferSegment> out;
    for (BufferSegment s : e.label.segments)
        if (s.offset >= start && s.offset < start + e.label.peerBytes[size_t(q)]) {
            s.offset -= start;
            out.push_back(s);
        }
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
    return out;
}

std::vector<BufferSegment> relative(const PeerBlock& block) {
    std::vector<BufferSegment> out = block.segments;
    for (auto& s : out) s.offset -= block.offset;
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
    return out;
}

bool sameSegments(const std::vector<BufferSegment>& a, const std::vector<BufferSegment>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](auto& x, auto& y) {
        return x.param == y.param && x.offset == y.offset && x.length == y.length &&
               x.padding == y.padding;
    });
}

int64_t measuredPeak(const RunResult& run) {
    int64_t peak = 0;
    for (const StepMemory& m : run.memory) peak = std::max(peak, m.peakBytes);
    return peak;
}

// What each rank took off the wire in the group's alltoallv: every other
// member's block for it, as that member's event records it.
int64_t mostReceived(const RunResult& run, int groupId) {
    std::map<int, int64_t> received;
    for (const TraceEvent& e : run.trace.events) {
        if (e.op != "all_to_all_v" || e.label.group != groupId) continue;
        for (size_t q = 0; q < e.groupRanks.size() && q < e.label.peerBytes.size(); ++q)
            if (e.groupRanks[q] != e.rank) received[e.groupRanks[q]] += e.label.peerBytes[q];
    }
    int64_t most = 0;
    for (const auto& [rank, bytes] : received) most = std::max(most, bytes);
    return most;
}

}  // namespace

class TestAllToAllViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void stepCaptionsSayWhoSendsWhatToWhom_data();
    void stepCaptionsSayWhoSendsWhatToWhom();
    void aShrunkRunsCaptionGivesTheRealSize();
    void bufferLayoutDrawsEveryPeersBlock_data();
    void bufferLayoutDrawsEveryPeersBlock();
    void gatherStrategyViewMatchesARunOfEach();
    void gatherStrategyViewFollowsTheSelectionAndCluster();
    void gatherStrategyViewSaysWhyAutoChose();
    void whatIfPanelChoosesTheGatherStrategy();
};

void TestAllToAllViews::stepCaptionsSayWhoSendsWhatToWhom_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("teaching") << sample(QStringLiteral("teaching_2x2.json"));
    QTest::newRow("diagnostics_tour") << sample(QStringLiteral("diagnostics_tour.json"));
}

void TestAllToAllViews::stepCaptionsSayWhoSendsWhatToWhom() {
    QFETCH(QString, path);
    const RunData data = runWith(path, GatherStrategyOption::AllToAll);
    // diagnostics_tour's planner rejects two params on purpose: the rest run.
    QVERIFY2(data.run->error.empty(), data.run->error.c_str());
    const Scenario& scenario = *data.plan.scenario;
    int gathers = 0, returns = 0;
    for (const RunStep& step : runSteps(data.run->trace)) {
        const TraceEvent& e = data.run->trace.events[size_t(step.events.front())];
        if (e.op != "all_to_all_v") continue;
        const StepCaption caption = stepCaption(step, data.run->trace, scenario, *data.plan.plan);
        const QString text = caption.headline + QLatin1Char('\n') + caption.why;
        // The bytes this rank sends the others and to how many, from its peer bytes.
        int64_t sent = 0;
        int peers = 0;
        for (size_t q = 0; q < e.label.peerBytes.size(); ++q)
            if (e.groupRanks[q] != e.rank && e.label.peerBytes[q] > 0)
                sent += e.label.peerBytes[q], ++peers;
        QVERIFY2(caption.why.contains(QStringLiteral("rank %1 sends to %2 of its %3 %4, %5 in all")
                                          .arg(e.rank)
                                          .arg(peers)
                                          .arg(e.groupRanks.size() - 1)
                                          .arg(e.groupRanks.size() == 2 ? "peer" : "peers")
                                          .arg(qs(humanBytes(double(sent))))),
                 qPrintable(text));
        QVERIFY2(
            caption.why.contains(QStringLiteral("each of the %1 ranks").arg(e.groupRanks.size())) ||
                e.label.phase != "gather",
            qPrintable(text));
        QVERIFY2(caption.why.contains(ranksText(e.groupRanks)), qPrintable(text));
        // The shard group's dims by name, never "the world" or mesh dim -1.
        const Mesh& mesh = *scenario.findMesh(e.label.mesh);
        const Group& group =
            *std::find_if(data.plan.plan->groups.begin(), data.plan.plan->groups.end(),
                          [&](const Group& g) { return g.id == e.label.group; });
        for (int d : group.shardMeshDims)
            QVERIFY2(caption.why.contains(qs(mesh.dimNames[size_t(d)])), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("the world")) &&
                     !text.contains(QStringLiteral("mesh dim -1")),
                 qPrintable(text));
        if (e.label.phase == "gather") {
            ++gathers;
            QVERIFY2(caption.why.contains(QStringLiteral("only its own piece")), qPrintable(text));
            QVERIFY2(caption.why.contains(QStringLiteral("assemble the full matrices")),
                     qPrintable(text));
            QVERIFY2(!caption.why.contains(QStringLiteral("all-gathers")), qPrintable(text));
        } else {
            ++returns;
            QCOMPARE(e.label.phase, std::string("update-broadcast"));
            QVERIFY2(caption.why.contains(QStringLiteral("back only its fp32 slice")),
                     qPrintable(text));
        }
    }
    QVERIFY(gathers > 0);
    QVERIFY(returns > 0);
    // The trace colours the exchange as an op of its own, not "other".
    TraceTimeline timeline(data.run, data.run->worldSize);
    const auto& ops = traceOpNames();
    int drawn = 0;
    for (int i = 0; i < timeline.eventCount(); ++i)
        if (data.run->trace.events[size_t(i)].op == "all_to_all_v") {
            QCOMPARE(ops[size_t(timeline.categoryOf(i, TraceColouring::Op))],
                     QStringLiteral("all_to_all_v"));
            ++drawn;
        }
    QVERIFY(drawn > 0);
}

// Shrunk by 4, every figure of an all_to_all_v caption says so, with the real size beside.
void TestAllToAllViews::aShrunkRunsCaptionGivesTheRealSize() {
    const QString path = QString::fromUtf8(kEven);
    const PlanResult plan = planWith(path, GatherStrategyOption::AllToAll);
    RunOptions options;
    options.flopBudget = 1e18;
    const ShrinkDecision at4 = shrinkAtFactor(*plan.scenario, 4);
    options.maxBytes = estimateRunBytes(*plan.scenario, *plan.plan, at4.paramShapes, at4.tpShapes);
    const RunData data = runWith(path, GatherStrategyOption::AllToAll, options);
    QVERIFY2(data.run->verified, data.run->error.c_str());
    QVERIFY(data.run->shrink && data.run->shrink->factor == 4);
    const RealScale scale = realScale(*data.plan.scenario, data.run->shrink);
    int exchanges = 0;
    for (const RunStep& step : runSteps(data.run->trace)) {
        const TraceEvent& e = data.run->trace.events[size_t(step.events.front())];
        if (e.op != "all_to_all_v") continue;
        ++exchanges;
        const StepCaption c =
            stepCaption(step, data.run->trace, *data.plan.scenario, *data.plan.plan, &scale);
        QVERIFY2(c.why.contains(QStringLiteral("in the shrunk run, ≈ ")), qPrintable(c.why));
        QVERIFY2(c.headline.contains(QStringLiteral("sent in all in the shrunk run (≈ ")),
                 qPrintable(c.headline));
    }
    QVERIFY(exchanges > 0);
}

void TestAllToAllViews::bufferLayoutDrawsEveryPeersBlock_data() {
    stepCaptionsSayWhoSendsWhatToWhom_data();
}

// For every member of every alltoallv: the send side is its own event's
// segments cut by its peer bytes, each receive block is what that peer's
// event sent it, and the picture has one block per peer with the segments inside.
void TestAllToAllViews::bufferLayoutDrawsEveryPeersBlock() {
    QFETCH(QString, path);
    const RunData data = runWith(path, GatherStrategyOption::AllToAll);
    QVERIFY2(data.run->error.empty(), data.run->error.c_str());
    const QSize size(1200, 800);
    int checked = 0;
    for (const BufferCollective& c : bufferCollectives(*data.run)) {
        if (!c.isExchange()) continue;
        for (int rank : c.event->groupRanks) {
            const BufferLayout layout = bufferLayout(data, c, rank, -1);
            QVERIFY(layout.exchange);
            const ExchangeLayout& x = *layout.exchange;
            QCOMPARE(x.send.size(), c.event->groupRanks.size());
            QCOMPARE(x.recv.size(), c.event->groupRanks.size());
            const TraceEvent* mine = eventOf(*data.run, c.seq, rank);
            QVERIFY(mine);
            QVERIFY(x.sendFromTrace);
            for (size_t q = 0; q < x.send.size(); ++q) {
                QCOMPARE(x.send[q].bytes, mine->label.peerBytes[q]);
                QVERIFY(sameSegments(relative(x.send[q]), sentTo(*mine, x.send[q].rank)));
            }
            // Without peer bytes (an older saved trace) the send side is the
            // runner's geometry, and that is what the rank recorded.
            TraceEvent bare = *mine;
            bare.label.peerBytes.clear();
            const auto laidOut = exchangeLayout(data, *c.event, &bare, rank);
            QVERIFY(laidOut && !laidOut->sendFromTrace);
            for (size_t q = 0; q < x.send.size(); ++q) {
                QCOMPARE(laidOut->send[q].bytes, x.send[q].bytes);
                QVERIFY(sameSegments(relative(laidOut->send[q]), relative(x.send[q])));
            }
            for (const PeerBlock& from : x.recv) {
                const TraceEvent* theirs = eventOf(*data.run, c.seq, from.rank);
                QVERIFY(theirs);
                QCOMPARE(from.bytes, theirs->label.peerBytes[size_t(memberIndex(*theirs, rank))]);
                QVERIFY2(
                    sameSegments(relative(from), sentTo(*theirs, rank)),
                    qPrintable(
                        QStringLiteral("#%1 rank %2 from %3").arg(c.seq).arg(rank).arg(from.rank)));
            }
            // One outlined block per peer that moves bytes, every segment inside its block.
            const BufferScene scene = buildBufferScene(layout, size);
            static const QRegularExpression placeholder(QStringLiteral("%[0-9]"));
            for (const BufferText& t : scene.texts)
                QVERIFY2(!t.text.contains(placeholder), qPrintable(t.text));
            for (const BufferShape& s : scene.shapes)
                QVERIFY2(!s.tip.contains(placeholder), qPrintable(s.tip));
            for (int section : {0, 1}) {
                const auto& blocks = section == 0 ? x.send : x.recv;
                const auto moving = std::count_if(blocks.begin(), blocks.end(),
                                                  [](const PeerBlock& b) { return b.bytes > 0; });
                std::map<int, QRectF> drawn;
                for (const BufferShape& s : scene.shapes)
                    if (s.kind == BufferShape::Block && s.section == section)
                        drawn[s.rank] = s.rect;
                QCOMPARE(qsizetype(drawn.size()), qsizetype(moving));
                for (const BufferShape& s : scene.shapes)
                    if (s.kind == BufferShape::Payload && s.section == section) {
                        QVERIFY(drawn.count(s.rank));
                        QVERIFY2(drawn[s.rank].adjusted(-1, 0, 1, 0).contains(s.rect),
                                 qPrintable(s.tip));
                    }
            }
            ++checked;
        }
    }
    QVERIFY(checked > 0);
    // The widget shows the exchange of the selected gathered batch, painted.
    PlanSelection selection;
    selection.setPlan(data.plan, SelectionState{});
    BufferLayoutWidget view(&selection);
    view.showRun(data);
    const auto collectives = bufferCollectives(*data.run);
    const auto first = std::find_if(collectives.begin(), collectives.end(),
                                    [](const BufferCollective& c) { return c.isExchange(); });
    SelectionState state;
    state.collective = first->seq;
    selection.set(state);
    QVERIFY(view.canvas()->layout() && view.canvas()->layout()->exchange);
    const QImage image = view.renderImage(size);
    const BufferScene scene = view.canvas()->scene(size);
    int painted = 0;
    for (const BufferShape& s : scene.shapes)
        if (s.kind == BufferShape::Payload && s.rect.width() >= 3)
            painted += QColor(image.pixel(s.rect.center().toPoint())) ==
                       bufferParamColor(view.canvas()->layout()->colourOf(s.param));
    QVERIFY(painted > 0);
}

// Each strategy's figures against a run of it: with every group on a
// strategy, that strategy's peak is the run's measured peak and the
// all-to-all's most received what the run's alltoallv delivered; the view
// costs in the background and marks the plan's strategy.
void TestAllToAllViews::gatherStrategyViewMatchesARunOfEach() {
    const QString path = sample(QStringLiteral("teaching_2x2.json"));
    for (const auto option : {GatherStrategyOption::AllGather, GatherStrategyOption::AllToAll}) {
        const bool toAll = option == GatherStrategyOption::AllToAll;
        const RunData run = runWith(path, option);
        QVERIFY(run.run->verified);
        PlanSelection selection;
        selection.setPlan(run.plan, SelectionState{});
        GatherStrategyWidget view(&selection);
        view.showPlan(run.plan);
        // Hidden (a tab behind others), it costs nothing; shown, it costs on
        // its own thread, so nothing is there at first.
        QVERIFY(!view.isCosting() && !view.shown());
        view.show();
        QVERIFY(view.isCosting() && !view.shown());
        QTRY_VERIFY_WITH_TIMEOUT(view.shown().has_value(), 20000);
        const StrategyComparison& c = *view.shown();
        QVERIFY(gathers(run.plan.plan->groups[size_t(c.group)]));
        QCOMPARE(c.used, toAll ? GatherStrategy::AllToAll : GatherStrategy::AllGather);
        QCOMPARE(c.cluster, std::string("loopback"));
        QVERIFY(view.table()
                    ->horizontalHeaderItem(toAll ? 1 : 0)
                    ->text()
                    .contains(QStringLiteral("the plan's")));
        QVERIFY(!view.table()
                     ->horizontalHeaderItem(toAll ? 0 : 1)
                     ->text()
                     .contains(QStringLiteral("the plan's")));
        QVERIFY(!c.chosenByAuto && !c.why.empty());  // the option named it
        QVERIFY2(view.caption().contains(qs(c.why)), qPrintable(view.caption()));
        const StrategyFigures& used = toAll ? c.allToAll : c.allGather;
        QCOMPARE(used.peakBytes, measuredPeak(*run.run));
        if (toAll) QCOMPARE(c.allToAll.maxReceived, mostReceived(*run.run, c.groupId));
        QVERIFY(c.allToAll.maxReceived < c.allGather.maxReceived);  // pieces, not whole matrices
        QVERIFY(c.allToAll.meanReceived <= double(c.allToAll.maxReceived));
        QVERIFY(c.allGather.seconds > 0 && c.allToAll.seconds > 0);
        QCOMPARE(view.table()->item(3, toAll ? 1 : 0)->text(),
                 QStringLiteral("%1 (rank %2)")
                     .arg(qs(humanBytes(double(used.peakBytes))))
                     .arg(used.peakRank));
        // The time row says whose time it is: this group's, without Newton–Schulz.
        const QString timeRow = view.table()->verticalHeaderItem(2)->text();
        QVERIFY2(timeRow.contains(QStringLiteral("this group")) &&
                     timeRow.contains(QStringLiteral("Newton–Schulz left out")),
                 qPrintable(timeRow));
    }
}

// Another group selected, another cluster chosen: the view costs that.
void TestAllToAllViews::gatherStrategyViewFollowsTheSelectionAndCluster() {
    PlanResult plan =
        planWith(sample(QStringLiteral("diagnostics_tour.json")), GatherStrategyOption::AllToAll);
    std::vector<int> gatheredGroups;
    for (size_t g = 0; g < plan.plan->groups.size(); ++g)
        if (gathers(plan.plan->groups[g])) gatheredGroups.push_back(int(g));
    QVERIFY(gatheredGroups.size() >= 2);
    PlanSelection selection;
    selection.setPlan(plan, SelectionState{});
    GatherStrategyWidget view(&selection);
    view.show();
    view.showPlan(plan);
    QTRY_VERIFY_WITH_TIMEOUT(view.shown().has_value(), 20000);
    QCOMPARE(view.shown()->group, gatheredGroups.front());
    // A param of the last gathered group.
    int param = -1;
    for (size_t p = 0; p < plan.index->params.size(); ++p)
        if (plan.index->params[p].group == gatheredGroups.back()) param = int(p);
    QVERIFY(param >= 0);
    SelectionState state;
    state.params = {param};
    selection.set(state);
    QTRY_VERIFY_WITH_TIMEOUT(view.shown() && view.shown()->group == gatheredGroups.back(), 20000);
    const StrategyFigures onLoopback = view.shown()->allToAll;
    // On the H100 preset the times are that cluster's, the bytes the same.
    const auto h100 = std::make_shared<const Cluster>(readClusterPreset("h100-dgx"));
    plan.prediction = predictPlan(plan, h100);
    view.showPrediction(plan);
    QTRY_VERIFY_WITH_TIMEOUT(view.shown() && view.shown()->cluster == h100->name, 20000);
    QCOMPARE(view.shown()->allToAll.maxReceived, onLoopback.maxReceived);
    QVERIFY(view.shown()->allToAll.seconds != onLoopback.seconds);
    for (const auto& e : estimateGatherStrategies(*plan.scenario, *plan.plan, *h100))
        if (e.group == gatheredGroups.back())
            QCOMPARE(view.shown()->allToAll.seconds, e.allToAllSeconds);
    QVERIFY(view.caption().contains(qs(h100->name)));
    // Its peaks fit an H100; on a device of 1 KiB each says it does not.
    auto peakCells = [&view] {
        QStringList cells;
        const auto* table = view.findChild<QTableWidget*>();
        for (int r = 0; table && r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)->text().startsWith(QStringLiteral("Peak")))
                for (int c = 0; c < table->columnCount(); ++c) cells << table->item(r, c)->text();
        return cells;
    };
    QCOMPARE(peakCells().size(), 4);
    for (const QString& cell : peakCells())
        QVERIFY2(!cell.contains(QStringLiteral("not fit")), qPrintable(cell));
    auto tiny = std::make_shared<Cluster>(readClusterPreset("h100-dgx"));
    tiny->name = "tiny";
    tiny->device.memoryBytes = 1024;
    plan.prediction = predictPlan(plan, tiny);
    view.showPrediction(plan);
    QTRY_VERIFY_WITH_TIMEOUT(view.shown() && view.shown()->cluster == "tiny", 20000);
    for (const QString& cell : peakCells())
        QVERIFY2(cell.endsWith(QStringLiteral(": does not fit the device's 1.0 KiB")),
                 qPrintable(cell));

    // A plan the cluster could not cost: no peak memory here while the
    // Memory view says there is no prediction; both give its reason.
    auto failed = std::make_shared<PlanPrediction>();
    failed->cluster = h100;
    failed->error = QStringLiteral("the step's schedule would hold too many work items");
    plan.prediction = failed;
    view.showPrediction(plan);
    QTRY_VERIFY_WITH_TIMEOUT(!view.shown(), 20000);
    MemoryWidget memory(&selection);
    memory.showPlan(plan);
    memory.showPrediction(plan);
    QCOMPARE(view.caption(), memory.message());
}

// Under "auto" the plan took the strategy the view predicts faster, and the view says why.
void TestAllToAllViews::gatherStrategyViewSaysWhyAutoChose() {
    const PlanResult plan =
        planWith(sample(QStringLiteral("teaching_2x2.json")), GatherStrategyOption::Auto);
    PlanSelection selection;
    selection.setPlan(plan, SelectionState{});
    GatherStrategyWidget view(&selection);
    view.show();
    view.showPlan(plan);
    QTRY_VERIFY_WITH_TIMEOUT(view.shown().has_value(), 20000);
    const StrategyComparison& c = *view.shown();
    QVERIFY(c.chosenByAuto);
    QCOMPARE(c.used, c.allToAll.seconds < c.allGather.seconds ? GatherStrategy::AllToAll
                                                              : GatherStrategy::AllGather);
    QVERIFY(!c.why.empty());
    QVERIFY2(view.caption().contains(qs(c.why)), qPrintable(view.caption()));
    QVERIFY(view.caption().contains(QStringLiteral("\"auto\"")));
}

void TestAllToAllViews::whatIfPanelChoosesTheGatherStrategy() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    QVERIFY(QFile::copy(sample(QStringLiteral("teaching_2x2.json")), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    MainWindow window;
    window.session()->setDebounceMilliseconds(50);
    QVERIFY(hsdp::testing::openAndWait(window, path));
    auto* combo = qobject_cast<QComboBox*>(
        window.view<EditWidget>()->fieldEditor(QStringLiteral("/options/gather_strategy")));
    QVERIFY(combo);
    QStringList choices;
    for (int i = 0; i < combo->count(); ++i) choices << combo->itemText(i);
    QCOMPARE(choices, (QStringList{QStringLiteral("all-gather"), QStringLiteral("all-to-all"),
                                   QStringLiteral("auto")}));
    QCOMPARE(combo->currentText(), QStringLiteral("all-gather"));  // the option is absent
    auto strategies = [&] {
        std::vector<GatherStrategy> out;
        for (const Group& g : window.session()->current().plan->groups)
            if (gathers(g)) out.push_back(g.gatherStrategy);
        return out;
    };
    QVERIFY(!strategies().empty());
    for (GatherStrategy s : strategies()) QCOMPARE(s, GatherStrategy::AllGather);
    QSignalSpy ready(&window, &MainWindow::planShown);
    combo->setCurrentIndex(1);
    emit combo->textActivated(combo->currentText());
    QVERIFY(ready.wait(20000));
    for (GatherStrategy s : strategies()) QCOMPARE(s, GatherStrategy::AllToAll);
    QCOMPARE(window.session()->current().scenario->options.gatherStrategy,
             GatherStrategyOption::AllToAll);
}

QTEST_MAIN(TestAllToAllViews)
#include "tst_all_to_all_views.moc"
