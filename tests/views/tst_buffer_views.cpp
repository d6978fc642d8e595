// SPDX-License-Identifier: Apache-2.0
// The buffer views against the engine. For every gathered batch of the
// teaching and diagnostics_tour samples (run for real), the buffer layout
// shows the trace's own segments for the send buffer and every slot of the
// gathered buffer, its cut of each param covers exactly the gathered piece
// with the bytes the segments say, and alignment padding is drawn hatched
// wherever a segment has padding. The mode comparison marks exactly the rows
// the reference run's Mismatch entries name, and paints them so; a param the
// reference run failed with an error has a line of its own at the top,
// readable where a short bottom dock shows the view.
// Pictures of these views come from the studio, not from a test:
//   hsdp-studio --screenshot DIR --run [--mode reference] SCENARIO
// writes buffer-layout.png and wrong-rows.png among the window's views.
#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QToolTip>
#include <QtTest>
#include <algorithm>
#include <map>
#include <set>

#include "buffer_layout/buffer_layout_widget.h"
#include "derived/run/buffer_layout.h"
#include "derived/run/run_status_text.h"
#include "run/runner.h"
#include "run_sample.h"
#include "runtime_test_util.h"
#include "samples.h"
#include "wrong_rows/wrong_rows.h"
#include "wrong_rows/wrong_rows_widget.h"

namespace hsdp {
bool operator==(const BufferSegment& a, const BufferSegment& b) {
    return a.param == b.param && a.offset == b.offset && a.length == b.length &&
           a.padding == b.padding;
}
}  // namespace hsdp

using namespace hsdp;
using hsdp::testing::eventOf;
using hsdp::testing::runScenarioFile;
using hsdp::testing::sample;

namespace {

const QSize kImageSize(1200, 800);

// The layout shown for `rank` carries the engine's segments, slot by slot.
void checkSegments(const RunResult& run, const BufferLayout& layout) {
    const TraceEvent* mine = eventOf(run, layout.seq, layout.rank);
    QVERIFY(mine);
    QVERIFY(layout.send.segments == mine->label.segments);
    QCOMPARE(layout.memberSlots.size(), mine->groupRanks.size());
    for (size_t q = 0; q < layout.memberSlots.size(); ++q) {
        const SlotRow& slot = layout.memberSlots[q];
        QCOMPARE(slot.rank, mine->groupRanks[q]);
        const TraceEvent* theirs = eventOf(run, layout.seq, slot.rank);
        QVERIFY(theirs);
        QVERIFY(slot.segments == theirs->label.segments);
    }
}

// The members' rows tile the gathered piece, and every member's payload is
// its row count times one row's bytes (the same for all members).
void checkCut(const BufferLayout& layout) {
    QVERIFY(layout.cut);
    const TensorCut& cut = *layout.cut;
    std::set<int64_t> seen;
    int64_t rowBytes = -1;
    for (const RowCut& m : cut.members) {
        const int64_t count = indexCount(m.rows);
        for (const auto& r : m.rows)
            for (int64_t i = r.begin; i < r.end; ++i) QVERIFY(seen.insert(i).second);
        QCOMPARE(m.segment.param, cut.param);
        if (count == 0) continue;
        QCOMPARE(m.segment.length % count, int64_t(0));
        if (rowBytes < 0) rowBytes = m.segment.length / count;
        QCOMPARE(m.segment.length / count, rowBytes);
    }
    QCOMPARE(int64_t(seen.size()), indexCount(cut.target));
    for (const auto& r : cut.target)
        for (int64_t i = r.begin; i < r.end; ++i) QVERIFY(seen.count(i));
}

// Hatch pixels inside every padding rectangle, one rectangle per padded segment.
void checkPadding(const BufferLayoutWidget& view) {
    const QImage image = view.renderImage(kImageSize);
    const BufferScene scene = view.canvas()->scene(kImageSize);
    const BufferLayout& layout = *view.canvas()->layout();
    const auto padded = [](const std::vector<BufferSegment>& segs) {
        return std::count_if(segs.begin(), segs.end(), [](auto& s) { return s.padding > 0; });
    };
    int64_t expected = padded(layout.send.segments);
    for (const auto& slot : layout.memberSlots) expected += padded(slot.segments);
    int64_t drawn = 0;
    for (const auto& shape : scene.shapes) {
        if (shape.kind != BufferShape::Padding) continue;
        ++drawn;
        int hatch = 0;
        const QRect r = shape.rect.toAlignedRect().intersected(image.rect());
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                hatch += QColor(image.pixel(x, y)) == bufferHatchColor();
        QVERIFY2(hatch > 0, qPrintable(shape.tip));
    }
    QCOMPARE(drawn, expected);
}

// A reference gather that fails with an error: embed.weight's 7 rows over
// 3 ranks pack 24, 24 and 8 elements at a 16-byte alignment, and the
// reference's all_gather_into_tensor refuses unequal sizes.
constexpr char kUnequalPacking[] = R"json({
  "format": "hsdp-scenario/1",
  "name": "uneven 3-way shard",
  "meshes": {"main": {"shape": [2, 3], "dim_names": ["dp_replicate", "dp_shard"]}},
  "world_size": 6,
  "options": {"alignment_bytes": 16},
  "params": [
    {"name": "embed.weight", "shape": [7, 8], "dtype": "f32", "mesh": "main", "placements": ["R", "S(0)"]},
    {"name": "w.even", "shape": [6, 8], "dtype": "f32", "mesh": "main", "placements": ["R", "S(0)"]}
  ]
})json";

// The params `run` failed with an error (its gather's or its step's verdict).
std::vector<const ParamRunResult*> failedWithAnError(const RunResult& run) {
    std::vector<const ParamRunResult*> out;
    for (const ParamRunResult& p : run.params)
        if (p.gather == GatherVerdict::Error || p.step == CheckVerdict::Error) out.push_back(&p);
    return out;
}

// The vertical centres of the runs of pixel rows of `area` holding the wrong red.
std::vector<int> redRuns(const QImage& image, const QRect& area) {
    std::vector<int> centres;
    int start = -1;
    for (int y = area.top(); y <= area.bottom() + 1; ++y) {
        bool red = false;
        for (int x = area.left(); x <= area.right() && y <= area.bottom(); ++x)
            red = red || QColor(image.pixel(x, y)) == WrongRowsWidget::wrongColor();
        if (red && start < 0) start = y;
        if (!red && start >= 0) {
            centres.push_back((start + y - 1) / 2);
            start = -1;
        }
    }
    return centres;
}

// The rightmost column of `band` with ink (darker than the background), or -1.
int lastInk(const QImage& image, const QRect& band) {
    for (int x = band.right(); x >= band.left(); --x)
        for (int y = band.top(); y <= band.bottom(); ++y)
            if (qGray(image.pixel(x, y)) < 160) return x;
    return -1;
}

QString toolTipAt(QWidget& view, const QPoint& pos) {
    QToolTip::hideText();
    QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
    QApplication::sendEvent(&view, &help);
    QTextDocument html;
    html.setHtml(QToolTip::text());
    return html.toPlainText();
}

}  // namespace

class TestBufferViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void gatheredBatchesShowEngineSegments_data();
    void gatheredBatchesShowEngineSegments();
    void replicaBroadcastShowsItsBuffer();
    void rankComboPicksTheSendBuffer();
    void referenceMarksExactlyTheMismatchRows();
    void aReferenceRunAloneDrawsItsWrongRows();
    void paramsThatFailedWithAnErrorHaveALineAtTheTop();
    void aShrunkRunsRowsSayTheyAreShrunk();
    void aStepOnlyFaultIsSaidNotHidden();
    void aColourIsAParamsRole();
    void theLegendFitsItsColumn();

private:
    std::map<QString, RunData> runs_;
};

void TestBufferViews::initTestCase() {
    runs_["teaching"] = runScenarioFile(sample("teaching_2x2.json"), RunMode::Corrected);
    runs_["tour"] = runScenarioFile(sample("diagnostics_tour.json"), RunMode::Corrected);
    runs_["tour-reference"] = runScenarioFile(sample("diagnostics_tour.json"), RunMode::Reference);
    for (const auto& [name, data] : runs_) QVERIFY2(data.run->error.empty(), qPrintable(name));
}

void TestBufferViews::gatheredBatchesShowEngineSegments_data() {
    QTest::addColumn<QString>("run");
    for (const char* name : {"teaching", "tour", "tour-reference"}) QTest::newRow(name) << name;
}

// Every gathered batch of the plan: selecting it shows one of its gathers;
// every gather of the run, seen from every member, shows the trace segments.
void TestBufferViews::gatheredBatchesShowEngineSegments() {
    QFETCH(QString, run);
    const RunData& data = runs_.at(run);
    PlanSelection selection;
    BufferLayoutWidget view(&selection);
    view.setRun(data);
    const Plan& plan = *data.plan.plan;
    int batches = 0;
    for (size_t g = 0; g < plan.groups.size(); ++g)
        for (size_t b = 0; b < plan.groups[g].batches.size(); ++b) {
            if (!plan.groups[g].batches[b].isShard) continue;
            SelectionState state;
            state.group = int(g);
            state.batch = int(b);
            selection.set(state);
            const auto& layout = view.canvas()->layout();
            const bool gathered = std::any_of(
                data.run->trace.events.begin(), data.run->trace.events.end(), [&](auto& e) {
                    return e.label.phase == "gather" && e.label.group == plan.groups[g].id &&
                           e.label.batch == int(b);
                });
            QCOMPARE(layout.has_value(), gathered);  // a failed reference gather moved nothing
            if (!layout) continue;
            QCOMPARE(layout->phase, std::string("gather"));
            QCOMPARE(layout->group, plan.groups[g].id);
            QCOMPARE(layout->batch, int(b));
            ++batches;
        }
    QVERIFY(batches > 0);
    int gathers = 0;
    for (size_t i = 0; i < view.collectives().size(); ++i) {
        const BufferCollective& c = view.collectives()[i];
        if (!c.isGather()) continue;
        ++gathers;
        for (int rank : c.event->groupRanks) {
            view.showCollective(int(i), rank);
            const BufferLayout& layout = *view.canvas()->layout();
            QCOMPARE(layout.rank, rank);
            checkSegments(*data.run, layout);
            if (QTest::currentTestFailed()) return;
            for (int p : layout.params) {
                checkCut(bufferLayout(data, c, rank, p));
                if (QTest::currentTestFailed()) return;
            }
        }
        checkPadding(view);
        if (QTest::currentTestFailed()) return;
    }
    QVERIFY(gathers > 0);
}

// 112 params of the 8B sample's buffer in 10 colours repeated without
// meaning; a colour is now a role (the name without its layer number): the
// same for layers.0 and layers.5 attention.wq, different between roles.
void TestBufferViews::aColourIsAParamsRole() {
    const RunData data = runScenarioFile(sample("llama3_8b_hsdp_2x4.json"), RunMode::Corrected);
    QVERIFY2(data.run->error.empty(), data.run->error.c_str());
    PlanSelection selection;
    BufferLayoutWidget view(&selection);
    view.setRun(data);
    const auto role = [](std::string name) {
        name.erase(
            std::remove_if(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }),
            name.end());
        return name;
    };
    int gathers = 0;
    for (const BufferCollective& c : view.collectives()) {
        if (!c.isGather()) continue;
        ++gathers;
        const BufferLayout layout = bufferLayout(data, c, c.event->groupRanks.front(), -1);
        std::set<std::string> roles;
        std::set<int> colours;
        for (size_t i = 0; i < layout.params.size(); ++i) {
            roles.insert(role(layout.paramNames[i]));
            colours.insert(layout.colourOf(layout.params[i]));
            for (size_t j = 0; j < i; ++j)
                QCOMPARE(layout.colourOf(layout.params[i]) == layout.colourOf(layout.params[j]),
                         role(layout.paramNames[i]) == role(layout.paramNames[j]));
        }
        QCOMPARE(colours.size(), roles.size());
        QVERIFY(roles.size() < layout.params.size());  // layers repeat their roles
    }
    QVERIFY(gathers > 0);
}

// A replica-broadcast collective selected by its seq shows its own buffer.
void TestBufferViews::replicaBroadcastShowsItsBuffer() {
    const RunData& data = runs_.at("tour");
    PlanSelection selection;
    BufferLayoutWidget view(&selection);
    view.setRun(data);
    int seen = 0;
    for (const auto& c : view.collectives()) {
        if (c.event->label.phase != "replica-broadcast") continue;
        selection.set({{}, -1, -1, {}, -1, c.seq});
        const auto& layout = view.canvas()->layout();
        QVERIFY(layout);
        QCOMPARE(layout->seq, c.seq);
        QVERIFY(!layout->cut);
        checkSegments(*data.run, *layout);
        ++seen;
    }
    QVERIFY(seen > 0);
}

void TestBufferViews::rankComboPicksTheSendBuffer() {
    const RunData& data = runs_.at("teaching");
    PlanSelection selection;
    BufferLayoutWidget view(&selection);
    view.setRun(data);
    const auto it = std::find_if(view.collectives().begin(), view.collectives().end(),
                                 [](auto& c) { return c.isGather(); });
    QVERIFY(it != view.collectives().end());
    const int last = it->event->groupRanks.back();
    selection.set({{}, -1, -1, {last}, -1, it->seq});
    QCOMPARE(view.canvas()->layout()->rank, last);
    QCOMPARE(view.rankBox()->currentData().toInt(), last);
    const int first = it->event->groupRanks.front();
    view.rankBox()->setCurrentIndex(0);
    emit view.rankBox()->activated(0);
    QCOMPARE(view.canvas()->layout()->rank, first);
    QVERIFY(view.canvas()->layout()->send.segments ==
            eventOf(*data.run, it->seq, first)->label.segments);
    view.setRun(RunData{});  // a new plan without a run yet: nothing stale stays
    QVERIFY(!view.canvas()->layout());
}

// Every param whose reference gather mismatches: the view marks per rank
// exactly Mismatch::rows (from the RunResult) and paints them.
void TestBufferViews::referenceMarksExactlyTheMismatchRows() {
    const RunData& corrected = runs_.at("tour");
    const RunData& reference = runs_.at("tour-reference");
    PlanSelection selection;
    WrongRowsWidget view(&selection);
    // --screenshot draws it only with something wrong: not for a run whose
    // params are all exact (the tour's corrected run; its refused params are
    // the plan's errors, not wrong rows).
    view.setRuns(corrected, {});
    for (const ParamRunResult& p : corrected.run->params) QVERIFY(!paramFailed(p));
    QVERIFY(view.screenshots().isEmpty());
    view.setRuns(corrected, reference);
    QCOMPARE(view.screenshots().size(), qsizetype(1));
    int compared = 0;
    for (const auto& p : reference.run->params) {
        std::map<int, std::vector<IndexRange>> expected;
        for (const auto& m : p.mismatches)
            if (m.what == "gather")
                expected[m.rank].insert(expected[m.rank].end(), m.rows.begin(), m.rows.end());
        selection.selectParam(p.index);
        const WrongRows& c = view.comparison();
        QCOMPARE(c.param, p.index);
        std::map<int, std::vector<IndexRange>> marked;
        for (const auto& copy : c.referenceCopies)
            if (!copy.wrongRows.empty()) marked[copy.rank] = copy.wrongRows;
        QVERIFY2(marked == expected, p.name.c_str());
        for (const auto& copy : c.correctedCopies) QVERIFY(copy.wrongRows.empty());
        if (expected.empty()) continue;
        ++compared;
        const QImage image = view.renderImage(kImageSize);
        const ComparisonGeometry g = view.geometry(kImageSize);
        QVERIFY(!g.pairs.empty());
        for (size_t i = 0; i < g.pairs.size(); ++i)
            for (const auto& r : c.referenceCopies[i].wrongRows) {
                const QRectF ref = g.band(g.pairs[i].reference, r);
                const QRectF cor = g.band(g.pairs[i].corrected, r);
                if (ref.height() < 3) continue;  // sub-pixel bands: the model check above holds
                QCOMPARE(QColor(image.pixel(ref.center().toPoint())),
                         WrongRowsWidget::wrongColor());
                if (r.end <= c.rows)  // the corrected copy has the tensor's rows only
                    QCOMPARE(QColor(image.pixel(cor.center().toPoint())),
                             WrongRowsWidget::exactColor());
            }
    }
    QVERIFY(compared > 0);  // the tour's hazards do mismatch
}

// A reference run alone was verified against the true result: its wrong
// rows are drawn beside the truth, not hidden until a corrected run comes.
void TestBufferViews::aReferenceRunAloneDrawsItsWrongRows() {
    const RunData& reference = runs_.at("tour-reference");
    PlanSelection selection;
    WrongRowsWidget view(&selection);
    view.setRuns({}, reference);
    QCOMPARE(view.screenshots().size(), qsizetype(1));
    const int wrong = firstReferenceMismatch(*reference.run);
    QVERIFY(wrong >= 0);
    QCOMPARE(view.comparison().param, wrong);
    QVERIFY(!view.comparison().ranks.empty());
    QVERIFY2(view.titleText().contains(QStringLiteral("the true result vs reference")),
             qPrintable(view.titleText()));
    const QImage image = view.renderImage(kImageSize);
    const ComparisonGeometry g = view.geometry(kImageSize);
    QVERIFY(!g.pairs.empty());
    int red = 0;
    for (const auto& r : view.comparison().referenceCopies.front().wrongRows) {
        const QRectF band = g.band(g.pairs.front().reference, r);
        red += band.height() >= 3 &&
               QColor(image.pixel(band.center().toPoint())) == WrongRowsWidget::wrongColor();
    }
    QVERIFY(red > 0);
}

// A shrunk run's row numbers are its shrunk tensor's: once the view drew
// "rows 16–19" as if of the real weight. Its subtitle now gives the shrunk
// and the real extents; a real-size run's says nothing of a shrink.
void TestBufferViews::aShrunkRunsRowsSayTheyAreShrunk() {
    PlanSelection selection;
    WrongRowsWidget view(&selection);
    view.setRuns(runs_.at("tour"), runs_.at("tour-reference"));
    QVERIFY(view.comparison().isValid());
    QVERIFY(view.shrunkNote().isEmpty());

    RunOptions options;
    options.maxBytes = 16 << 10;
    int shrunkCompared = 0;
    RunData corrected, reference;
    for (RunData* data : {&corrected, &reference}) {
        data->plan = runs_.at("tour").plan;
        options.mode = data == &reference ? RunMode::Reference : RunMode::Corrected;
        data->run = std::make_shared<const RunResult>(
            runPlan(*data->plan.scenario, *data->plan.plan, options));
        QVERIFY(data->run->shrink && data->run->shrink->factor > 1);
    }
    view.setRuns(corrected, reference);
    for (const ParamRunResult& p : reference.run->params) {
        if (!gatherMismatched(*reference.run, p.index)) continue;
        selection.selectParam(p.index);
        const WrongRows& c = view.comparison();
        QCOMPARE(c.param, p.index);
        const int64_t real = reference.plan.scenario->params[size_t(p.index)].shape.front();
        QVERIFY(c.rows < real);  // the run's rows, not the model's
        const QString expected = QStringLiteral("(%1 of the real %2)").arg(c.rows).arg(real);
        QVERIFY2(view.shrunkNote().contains(expected), qPrintable(view.shrunkNote()));
        ++shrunkCompared;
    }
    QVERIFY(shrunkCompared > 0);
}

// colwise.strided gathers right in the reference run and then applies its
// update to the wrong rows: the view said "no gathered row differs
// (corrected exact, reference exact)", which read as nothing wrong. It says
// the step result is wrong, with the run's own words, and where to look.
void TestBufferViews::aStepOnlyFaultIsSaidNotHidden() {
    PlanSelection selection;
    WrongRowsWidget view(&selection);
    const RunData& reference = runs_.at("tour-reference");
    view.setRuns(runs_.at("tour"), reference);
    int checked = 0;
    for (const ParamRunResult& p : reference.run->params) {
        if (p.gather != GatherVerdict::Exact || p.step != CheckVerdict::Mismatch) continue;
        selection.selectParam(p.index);
        QCOMPARE(view.comparison().param, p.index);
        const QString text = view.messageText();
        QVERIFY2(text.contains(QStringLiteral("step result is wrong: ") +
                               QString::fromStdString(p.detail)),
                 qPrintable(text));
        ++checked;
    }
    QVERIFY(checked > 0);  // colwise.strided
    // A param right in every way says nothing of a wrong step.
    for (const ParamRunResult& p : reference.run->params)
        if (!paramFailed(p)) {
            selection.selectParam(p.index);
            QVERIFY(!view.messageText().contains(QStringLiteral("step result is wrong")));
            break;
        }
}

// A param whose reference gather failed with an error has no gathered rows
// to draw; once the view was blank where a bottom dock shows it, its text
// centred far below. Now each param that failed with an error has a line
// at the top, led by a mark in the wrong red, its text elided to the width
// and whole in the line's tooltip: with the corrected run to compare, and
// with the reference run alone.
void TestBufferViews::paramsThatFailedWithAnErrorHaveALineAtTheTop() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("unequal_packing.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kUnequalPacking);
    file.close();
    const RunData corrected = runScenarioFile(path, RunMode::Corrected);
    const RunData reference = runScenarioFile(path, RunMode::Reference);
    QVERIFY(corrected.run->verified);
    const std::vector<const ParamRunResult*> errors = failedWithAnError(*reference.run);
    QCOMPARE(errors.size(), size_t(1));
    const ParamRunResult& failed = *errors.front();
    QCOMPARE(failed.gather, GatherVerdict::Error);
    // The reference's own words for it: the first error of its detail, whole.
    const std::string first = failed.detail.substr(0, failed.detail.find("; ranks "));
    QVERIFY(first.size() > 100);

    PlanSelection selection;
    WrongRowsWidget view(&selection);
    const QSize size(1200, 360);  // the view's least height
    const int dockShows = 150;    // what a bottom dock of the studio's first layout shows of it
    for (const RunData& comparedWith : {corrected, RunData{}}) {
        view.setRuns(comparedWith, reference);
        selection.selectParam(failed.index);
        view.resize(size.width(), view.minimumHeight());
        const QImage image = view.renderImage(view.size());
        const std::vector<int> lines = redRuns(image, QRect(0, 0, 40, dockShows));
        QCOMPARE(lines.size(), errors.size());
        const QString tip = toolTipAt(view, QPoint(size.width() / 2, lines.front()));
        QVERIFY2(tip.contains(QString::fromStdString(failed.name)), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(first)), qPrintable(tip));
        // Elided on the line: no ink past the right margin.
        const int ink = lastInk(image, QRect(0, lines.front() - 6, size.width(), 12));
        QVERIFY2(ink > size.width() / 2 && ink < size.width() - 8,
                 qPrintable(QString::number(ink)));
        // A picture cannot be hovered: its heading says where the whole text is.
        QVERIFY(view.errorsHeaderText(false).contains(QStringLiteral("hover")));
        QVERIFY2(!view.errorsHeaderText(true).contains(QStringLiteral("hover")) &&
                     view.errorsHeaderText(true).contains(QStringLiteral("verification table")),
                 qPrintable(view.errorsHeaderText(true)));
    }
    // The tour's reference run fails rowwise.uneven's step with an error
    // (its update slice does not fit the shard); its gathered rows mismatch
    // too, so its line comes with the bars.
    view.setRuns(runs_.at("tour"), runs_.at("tour-reference"));
    const auto tourErrors = failedWithAnError(*runs_.at("tour-reference").run);
    QVERIFY(!tourErrors.empty());
    selection.selectParam(tourErrors.front()->index);
    view.resize(size.width(), view.minimumHeight());
    const QImage image = view.renderImage(view.size());
    QCOMPARE(redRuns(image, QRect(0, 0, 40, dockShows)).size(), tourErrors.size());
    QVERIFY(!view.comparison().ranks.empty());
}

// The report's picture of the 8B sample's fused buffer (1300x820, 112
// params): the legend ends inside its column, the params giving way to the
// note on the cut lines, which is drawn whole (its last lines were cut off).
void TestBufferViews::theLegendFitsItsColumn() {
    const RunData data = runScenarioFile(sample("llama3_8b_hsdp_2x4.json"), RunMode::Corrected);
    QVERIFY(data.run->error.empty());
    PlanSelection selection;
    BufferLayoutWidget view(&selection);
    view.setRun(data);
    SelectionState state;
    state.group = 0;
    state.batch = 0;
    selection.set(state);
    const BufferLayoutCanvas* canvas = view.canvas();
    QVERIFY(canvas->layout() && canvas->layout()->cut);
    for (const QSize size : {QSize(1300, 820), QSize(900, 560), QSize(1300, 420)}) {
        const QSize fitted = canvas->fittedSize(size);
        const QRectF column = canvas->scene(fitted).legend;
        QVERIFY2(canvas->legendBottom(fitted) <= column.bottom() + 0.5,
                 qPrintable(QStringLiteral("at %1x%2 the legend ends at %3, its column at %4")
                                .arg(fitted.width())
                                .arg(fitted.height())
                                .arg(canvas->legendBottom(fitted))
                                .arg(column.bottom())));
    }
}

QTEST_MAIN(TestBufferViews)
#include "tst_buffer_views.moc"
