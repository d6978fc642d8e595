// SPDX-License-Identifier: Apache-2.0
// The run views label their figures for what they are (issue 18, points 6
// and 8): a shrunk run's sizes say "in the shrunk run" with the real-size
// figure beside them (checked against a run of the real shapes), the run line
// and Traffic count the same collectives, one id names a collective in the
// trace, Steps, Buffer layout, Traffic and the report, bandwidth is NCCL-tests
// GB/s, and summed times are told from wall times.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <tuple>

#include <qcustomplot.h>

#include "buffer_layout/buffer_layout_widget.h"
#include "buffer_layout/buffer_scene.h"
#include "derived/run/buffer_layout.h"
#include "derived/run/run_status_text.h"
#include "derived/run/run_steps.h"
#include "derived/run/step_caption.h"
#include "derived/run/traffic_stats.h"
#include "report/report_builder.h"
#include "run/real_size.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_budget.h"
#include "samples.h"
#include "steps/step_widget.h"
#include "trace/trace_canvas.h"
#include "trace/trace_widget.h"
#include "traffic/traffic_widget.h"
#include "types/figures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

const char* const kEven = HSDP_SOURCE_DIR "/tests/data/figures/even_2x4.json";

// The even scenario on its real shapes, or shrunk by exactly 4 (its budget is
// what the shapes at 4 need): every shard even, no padding, so the real-size
// figures of the shrunk run are exactly the real run's.
RunData runEven(bool shrunk) {
    RunData data;
    data.plan = computePlanResult(QString::fromUtf8(kEven));
    const Scenario& s = *data.plan.scenario;
    RunOptions options;
    options.flopBudget = 1e18;
    const ShrinkDecision at4 = shrinkAtFactor(s, 4);
    options.maxBytes = shrunk ? estimateRunBytes(s, *data.plan.plan, at4.paramShapes, at4.tpShapes)
                              : int64_t(1) << 40;
    data.run = std::make_shared<const RunResult>(runPlan(s, *data.plan.plan, options));
    return data;
}

using Key = std::tuple<std::string, int, int, int, std::vector<int>, std::vector<int>>;
Key keyOf(const TraceEvent& e) {
    return {e.label.phase,   e.label.group, e.label.batch,
            e.label.meshDim, e.groupRanks,  e.label.params};
}

const TraceEvent& firstEvent(const RunData& data, const RunStep& step) {
    return data.run->trace.events[size_t(step.events.front())];
}

// Every collective of a run by what it does: its size S.
std::map<Key, double> sizes(const RunData& data) {
    std::map<Key, double> out;
    for (const RunStep& step : runSteps(data.run->trace))
        out[keyOf(firstEvent(data, step))] = collectiveSize(step, data.run->trace);
    return out;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString reportText(const RunData& run) {
    ReportInput input;
    input.plan = run.plan;
    input.run = run;
    input.command = QStringLiteral("hsdp-inspect report x --run -o y.html");
    const ReportDocument doc = buildReport(input);
    QString all;
    for (const ReportSection& s : doc.sections)
        for (const ReportBlock& b : s.blocks) {
            all += b.text + QLatin1Char('\n');
            for (const auto& [label, value] : b.facts) all += label + ": " + value + '\n';
            all += b.table.header.join(QLatin1Char('|')) + '\n';
            for (const QStringList& row : b.table.rows) all += row.join(QLatin1Char('|')) + '\n';
        }
    return all;
}

}  // namespace

class TestFigureLabels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        real_ = runEven(false);
        shrunk_ = runEven(true);
        QVERIFY2(real_.run->verified, real_.run->error.c_str());
        QVERIFY2(shrunk_.run->verified, shrunk_.run->error.c_str());
        QVERIFY(shrunk_.run->shrink && shrunk_.run->shrink->factor == 4);
    }

    // The all-to-all's members send other params' pieces each: the Traffic
    // view's real-size total scales each member's bytes by its own label, as
    // the run's line does, and the two agree (486 and 517 GiB on a 70B run
    // when the view scaled a collective by its first member's label).
    void allToAllRealSizeTrafficIsTheRunsOwn_data() {
        QTest::addColumn<QString>("file");
        QTest::addRow("8B") << QStringLiteral("diff/llama3_8b_all_to_all.json");
    }
    void allToAllRealSizeTrafficIsTheRunsOwn() {
        QFETCH(QString, file);
        QFile in(sample(file));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject scenario = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject options = scenario.value(QStringLiteral("options")).toObject();
        options.insert(QStringLiteral("gather_strategy"), QStringLiteral("all-to-all"));
        scenario.insert(QStringLiteral("options"), options);
        QTemporaryDir dir;
        QFile out(dir.filePath(QStringLiteral("a2a.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(scenario).toJson());
        out.close();
        RunData data;
        data.plan = computePlanResult(out.fileName());
        RunOptions options4 = budgetedRunOptions();
        options4.maxBytes = std::min<int64_t>(options4.maxBytes, 1 << 20);  // shrunk, unevenly
        data.run = std::make_shared<const RunResult>(
            runPlan(*data.plan.scenario, *data.plan.plan, options4));
        QVERIFY(data.run->shrink);
        const RealScale real = realScale(*data.plan.scenario, data.run->shrink);
        const TrafficStats stats = trafficStats(runSteps(data.run->trace), data.run->trace,
                                                data.plan.scenario.get(), 12, &real);
        QVERIFY2(std::abs(stats.total.realWireBytes - double(data.run->shrink->realBytes)) <=
                     double(data.run->rankEvents),  // each event rounded to a byte there
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(stats.total.realWireBytes, 0, 'f', 0)
                                .arg(data.run->shrink->realBytes)));
    }

    // Steps: every caption's size is of the shrunk run, with the size the real
    // shapes moved in the same collective beside it.
    void stepCaptionsGiveTheRealSizeBeside() {
        const auto real = sizes(real_);
        const RealScale scale = realScale(*shrunk_.plan.scenario, shrunk_.run->shrink);
        const auto steps = runSteps(shrunk_.run->trace);
        QVERIFY(!steps.empty());
        for (const RunStep& step : steps) {
            const TraceEvent& e = firstEvent(shrunk_, step);
            const StepCaption caption = stepCaption(
                step, shrunk_.run->trace, *shrunk_.plan.scenario, *shrunk_.plan.plan, &scale);
            const bool gather = e.op == "all_gather";
            const double n = gather ? double(e.groupRanks.size()) : 1.0;
            const QString what =
                gather ? QStringLiteral(" block per rank") : QStringLiteral(" buffer");
            const QString want = qs(humanBytes(collectiveSize(step, shrunk_.run->trace) / n)) +
                                 what + QStringLiteral(" in the shrunk run (≈ ") +
                                 qs(humanBytes(real.at(keyOf(e)) / n)) + what +
                                 QStringLiteral(" at real size)");
            QVERIFY2(caption.headline.contains(want),
                     qPrintable(caption.headline + QStringLiteral("\nwant: ") + want));
            QVERIFY2(caption.why.contains(QStringLiteral("in the shrunk run, ≈ ")),
                     qPrintable(caption.why));
            // The block goes to each other member: the rows' "sent" (the
            // bytes a rank put on the wire) is the block times the others.
            if (gather) {
                QVERIFY2(caption.headline.contains(
                             QStringLiteral(", sent to each of %1 others").arg(n - 1)),
                         qPrintable(caption.headline));
                for (int index : step.events) {
                    const TraceEvent& member = shrunk_.run->trace.events[size_t(index)];
                    QCOMPARE(double(member.bytes),
                             collectiveSize(step, shrunk_.run->trace) / n * (n - 1));
                }
            }
        }
        // A run of the real shapes says nothing of the kind.
        const RealScale none = realScale(*real_.plan.scenario, real_.run->shrink);
        for (const RunStep& step : runSteps(real_.run->trace)) {
            const StepCaption c =
                stepCaption(step, real_.run->trace, *real_.plan.scenario, *real_.plan.plan, &none);
            QVERIFY2(!(c.headline + c.why).contains(QStringLiteral("shrunk")),
                     qPrintable(c.headline));
        }
    }

    // Buffer layout: the shrunk buffer's bytes times its real ratio are the
    // real run's, and its headings say whose bytes they are.
    void bufferLayoutSaysShrunkAndGivesTheRealSize() {
        std::map<std::pair<Key, int>, int64_t> realPayload;  // (collective, rank) -> payload
        const auto realCollectives = bufferCollectives(*real_.run);
        for (const BufferCollective& c : realCollectives)
            for (const TraceEvent* m : c.members)
                if (m) {
                    int64_t payload = 0;
                    for (const BufferSegment& s : m->label.segments) payload += s.length;
                    realPayload[{keyOf(*c.event), m->rank}] = payload;
                }
        const auto collectives = bufferCollectives(*shrunk_.run);
        QVERIFY(!collectives.empty());
        int cuts = 0;
        for (const BufferCollective& c : collectives) {
            const int rank = c.event->groupRanks.back();
            const BufferLayout layout = bufferLayout(shrunk_, c, rank, -1);
            QVERIFY(layout.shrunk());
            QVERIFY(layout.realRatio.has_value());
            int64_t payload = 0;
            for (const BufferSegment& s : layout.send.segments) payload += s.length;
            QCOMPARE(std::llround(double(payload) * *layout.realRatio),
                     realPayload.at({keyOf(*c.event), rank}));
            QString texts;
            for (const BufferText& t : buildBufferScene(layout, QSize(1200, 700)).texts)
                texts += t.text + QLatin1Char('\n');
            QVERIFY2(texts.contains(qs(exactBytes(layout.send.slotBytes)) +
                                    QStringLiteral(" in the shrunk run (≈ ")),
                     qPrintable(texts));
            QVERIFY2(texts.contains(QStringLiteral("slots of the shrunk run")), qPrintable(texts));
            // The real-size totals on a line of their own, under the totals:
            // behind them they were cut off at a report picture's width.
            QVERIFY2(texts.contains(QStringLiteral("\nAt real size ≈ ")), qPrintable(texts));
            // A param cut out of it: its rows are the shrunk tensor's, said so.
            if (c.event->label.params.empty()) continue;
            const BufferLayout cut = bufferLayout(shrunk_, c, rank, c.event->label.params.front());
            if (!cut.cut) continue;
            QString cutTexts;
            for (const BufferText& t : buildBufferScene(cut, QSize(1200, 700)).texts)
                cutTexts += t.text + QLatin1Char('\n');
            QVERIFY2(cutTexts.contains(QStringLiteral("(the shrunk run's rows, each dim about 1/%1")
                                           .arg(cut.shrinkFactor)),
                     qPrintable(cutTexts));
            ++cuts;
        }
        QVERIFY(cuts > 0);
        // Of the real run, the layout has nothing to qualify.
        const BufferLayout plain =
            bufferLayout(real_, realCollectives.front(), realCollectives.front().event->rank, -1);
        QVERIFY(!plain.shrunk());
    }

    // A 70B model's gathered-buffer heading ("… = X in the shrunk run (≈ Y at
    // real size)") was cut before its real size at a report picture's width:
    // it is drawn in a shorter wording that fits and keeps both sizes, and
    // the tooltip has it in full.
    void bufferHeadingsFitWithTheirRealSize() {
        const auto collectives = bufferCollectives(*shrunk_.run);
        QVERIFY(!collectives.empty());
        QFont bold;
        bold.setBold(true);
        const QFontMetricsF metrics(bold);
        int shortened = 0;
        for (const BufferCollective& c : collectives) {
            const BufferLayout layout = bufferLayout(shrunk_, c, c.event->groupRanks.back(), -1);
            for (const int width : {1200, 900, 760}) {
                for (const BufferText& t : buildBufferScene(layout, QSize(width, 700)).texts) {
                    if (!t.bold || !t.text.contains(QStringLiteral("at real size"))) continue;
                    const QString shown = bufferTextShown(t, metrics);
                    QVERIFY2(!shown.contains(QChar(0x2026)), qPrintable(shown));  // not elided
                    QVERIFY2(metrics.horizontalAdvance(shown) <= t.rect.width(), qPrintable(shown));
                    QVERIFY2(
                        shown.contains(QStringLiteral("≈ ")) && shown.endsWith(QLatin1Char(')')),
                        qPrintable(shown));
                    shortened += shown != t.text;
                }
            }
        }
        QVERIFY(shortened > 0);  // some width did not hold the whole heading
    }

    // Traffic counts what the run line counts; its real-size bytes are the
    // real run's; its bandwidth is GB/s; Σ t is told from the busy wall time.
    void trafficAgreesWithTheRunLine() {
        PlanSelection selection;
        TrafficWidget view(&selection);
        // No run: no row of zero bandwidths, a note that says how to get one.
        view.setRun(RunData{});
        QCOMPARE(view.table()->rowCount(), 0);
        QVERIFY(view.plot()->isHidden());  // nothing pushes the note out of a short dock
        QVERIFY2(view.noteText().contains(QStringLiteral("No run yet")) &&
                     view.noteText().contains(QStringLiteral("Ctrl+R")),
                 qPrintable(view.noteText()));
        view.setRun(shrunk_);
        QVERIFY(view.table()->rowCount() > 0);
        QVERIFY(!view.plot()->isHidden());
        QVERIFY(!view.noteText().contains(QStringLiteral("No run yet")));
        const TrafficStats& stats = view.stats();
        const RunResult& run = *shrunk_.run;
        QCOMPARE(stats.total.collectives, run.collectives);
        QCOMPARE(stats.total.events, run.rankEvents);
        QVERIFY(stats.shrunk);
        QCOMPARE(std::llround(stats.total.realWireBytes), real_.run->bytes);
        const QString line = runStatusLine(run);
        QVERIFY2(line.contains(groupedNumber(stats.total.collectives) + " collectives (" +
                               groupedNumber(stats.total.events) + " per-rank events)"),
                 qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("shrunk run: buffers ")), qPrintable(line));
        QVERIFY(view.axisTitle().contains(QStringLiteral("GB/s")));
        QStringList headers;
        for (int c = 0; c < view.table()->columnCount(); ++c)
            headers << view.table()->horizontalHeaderItem(c)->text();
        const QString all = headers.join('|');
        QVERIFY2(all.contains(QStringLiteral("summed over collectives")) &&
                     all.contains(QStringLiteral("busy wall")) &&
                     all.contains(QStringLiteral("shrunk run")),
                 qPrintable(all));
        const int last = view.table()->rowCount() - 1;
        const int busbw = int(headers.size()) - 1;
        QCOMPARE(view.table()->item(last, busbw)->text(), qs(bandwidthText(stats.total.busbw())));
        double summed = 0;
        for (const TrafficRow& row : stats.byOp) summed += row.seconds;
        QVERIFY(std::abs(summed - stats.total.seconds) < 1e-9);
        QVERIFY(stats.total.wallSeconds <= stats.total.seconds + 1e-9);
        QVERIFY(stats.total.wallSeconds <= run.seconds);
        QVERIFY(stats.total.wallSeconds > 0);
    }

    // The Traffic chart's bars are bandwidths: its title says whose (the
    // shrunk run's), and the plot, names under the bars included, fits a
    // short bottom dock.
    void trafficChartSaysShrunkAndFitsItsTitle() {
        PlanSelection selection;
        TrafficWidget view(&selection);
        for (const RunData* run : {&shrunk_, &real_}) {
            view.setRun(*run);
            QCOMPARE(view.axisTitle().contains(QStringLiteral("shrunk run")), run == &shrunk_);
            QVERIFY2(view.axisTitle().contains(QStringLiteral("GB/s")),
                     qPrintable(view.axisTitle()));
            // A bottom dock at 1440 x 900 holds about 240 px: the plot, names
            // under the bars included, fits it (a 340 px one hid the names).
            QVERIFY2(view.plot()->minimumHeight() <= 240,
                     qPrintable(QString::number(view.plot()->minimumHeight())));
            // The legend stands above the bars, not over the last ones, and
            // the last rotated name ends inside the plot.
            for (int width : {700, 1400}) {
                view.plot()->setViewport(QRect(0, 0, width, 240));
                view.plot()->replot();
                view.plot()->replot();  // the key range follows the laid-out width
                const QRect bars = view.plot()->axisRect()->rect();
                QVERIFY(!view.plot()->legend->outerRect().intersects(bars));
                QVERIFY2(bars.height() >= 50, qPrintable(QString::number(bars.height())));
                auto* ticker = static_cast<QCPAxisTickerText*>(view.plot()->xAxis->ticker().data());
                const double lastKey = ticker->ticks().lastKey();
                const QString lastName = ticker->ticks().last();
                const double nameEnd =
                    view.plot()->xAxis->coordToPixel(lastKey) +
                    QFontMetrics(view.plot()->xAxis->tickLabelFont()).horizontalAdvance(lastName) *
                        std::cos(20 * M_PI / 180);
                QVERIFY2(nameEnd <= view.plot()->viewport().right(),
                         qPrintable(QStringLiteral("'%1' ends at %2 px of %3")
                                        .arg(lastName)
                                        .arg(nameEnd)
                                        .arg(width)));
            }
        }
    }

    // Every bar of the Traffic chart shows: bandwidths a decade or more apart
    // (a shrunk run's broadcasts against its all-gathers: 0.013 and 0.00008
    // GB/s in a 70B run) go on a log axis,
    // which the title says, and each bar rises at least 3 px off the floor.
    void everyTrafficBarShows() {
        // A 1 MB broadcast and a 1 KB all-gather, a millisecond each on ranks
        // 0 and 1: bandwidths 1,000x apart.
        RunData data;
        data.plan = computePlanResult(sample(QStringLiteral("teaching_2x2.json")));
        auto run = std::make_shared<RunResult>();
        run->worldSize = 4;
        for (int rank : {0, 1}) {
            for (const auto& [seq, op, bytes, start] :
                 {std::tuple{int64_t(0), "broadcast", int64_t(1000000), 0.0},
                  std::tuple{int64_t(1), "all_gather", int64_t(1000), 2000.0}}) {
                TraceEvent e;
                e.seq = seq;
                e.rank = rank;
                e.op = op;
                e.groupRanks = {0, 1};
                e.bytes = rank == 0 || std::string(op) == "all_gather" ? bytes : 0;
                e.inputBytes = e.outputBytes = bytes;
                e.startUs = start;
                e.endUs = start + 1000;
                e.label.phase = "gather";
                run->trace.events.push_back(e);
            }
        }
        run->collectives = 2;
        run->rankEvents = 4;
        data.run = run;
        PlanSelection selection;
        TrafficWidget view(&selection);
        view.setRun(data);
        view.plot()->setViewport(QRect(0, 0, 800, 400));
        view.plot()->replot();
        QCPAxis* axis = view.plot()->yAxis;
        double low = 0, top = 0;
        for (int i = 0; i < view.plot()->plottableCount(); ++i)
            if (auto* bars = qobject_cast<QCPBars*>(view.plot()->plottable(i)))
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    if (it->value > 0) {
                        low = low > 0 ? std::min(low, it->value) : it->value;
                        top = std::max(top, it->value);
                        QVERIFY2(
                            axis->coordToPixel(axis->range().lower) -
                                    axis->coordToPixel(it->value) >=
                                3,
                            qPrintable(QStringLiteral("a %1 GB/s bar is flat").arg(it->value)));
                    }
        QVERIFY(low > 0);
        QVERIFY2(top / low >= 10, qPrintable(QStringLiteral("%1 to %2").arg(low).arg(top)));
        QVERIFY(view.axisTitle().contains(QStringLiteral("log scale")));
    }

    // One id per collective: "#<seq>" in the trace tooltip, Steps, Buffer
    // layout and Traffic's slowest collectives.
    void oneCollectiveOneIdEverywhere() {
        PlanSelection selection;
        TraceWidget trace(&selection);
        StepWidget steps(&selection);
        BufferLayoutWidget buffers(&selection);
        TrafficWidget traffic(&selection);
        trace.setRun(shrunk_);
        steps.setRun(shrunk_);
        buffers.setRun(shrunk_);
        traffic.setRun(shrunk_);
        const auto& events = shrunk_.run->trace.events;
        int checked = 0;
        for (const BufferCollective& c : buffers.collectives()) {
            // The run-wide id everywhere; the Steps view names it on its group too.
            const QString seq = QStringLiteral("seq %1").arg(c.seq);
            const QString id = QStringLiteral("collective ") + seq;
            selection.selectCollective(c.seq, c.event->groupRanks, c.event->label.params);
            QVERIFY2(steps.positionText().contains(QStringLiteral(" of group ")) &&
                         steps.positionText().endsWith(QStringLiteral("(%1)").arg(seq)),
                     qPrintable(steps.positionText()));
            QVERIFY2(steps.caption().headline.contains(QStringLiteral("(%1)").arg(seq)),
                     qPrintable(steps.caption().headline));
            const auto layout = buffers.canvas()->layout();
            QVERIFY(layout && layout->seq == c.seq);
            QString title = buffers.canvas()->scene(QSize(1200, 700)).texts.front().text;
            QVERIFY2(title.contains(id), qPrintable(title));
            for (size_t i = 0; i < events.size(); ++i)
                if (events[i].seq == c.seq) {
                    const QString tip = trace.canvas()->toolTipFor(int(i));
                    QVERIFY2(tip.contains(id), qPrintable(tip));
                }
            ++checked;
        }
        QVERIFY(checked > 0);
        QTableWidget* slowest = traffic.slowestTable();
        QCOMPARE(slowest->horizontalHeaderItem(1)->text(), QStringLiteral("collective"));
        for (int r = 0; r < slowest->rowCount(); ++r) {
            const RunStep& step = traffic.steps()[size_t(traffic.stats().slowest[size_t(r)])];
            QCOMPARE(slowest->item(r, 1)->text(), QStringLiteral("seq %1").arg(step.seq));
        }
    }

    // The report: the same counts as the run, times labelled summed or wall
    // and consistent with the run's, bytes of the shrunk run beside the real.
    void reportLabelsTimesAndSizes() {
        const QString text = reportText(shrunk_);
        const RunResult& run = *shrunk_.run;
        const TrafficStats stats = [&] {
            const RealScale scale = realScale(*shrunk_.plan.scenario, run.shrink);
            return trafficStats(runSteps(run.trace), run.trace, shrunk_.plan.scenario.get(), 12,
                                &scale);
        }();
        for (const QString& part :
             {groupedNumber(run.collectives) + " collectives (" + groupedNumber(run.rankEvents) +
                  " per-rank events)",
              QStringLiteral("Σ t (ms, summed over collectives)"), QStringLiteral("Busy wall (ms)"),
              QStringLiteral("algbw (GB/s, shrunk run)"),
              QStringLiteral("Wire bytes, real size (≈)"),
              qs(wallTimeText(run.seconds)) + QStringLiteral(")"),
              QStringLiteral("shrunk run: buffers "),
              QStringLiteral(" in the shrunk run (≈ ") + qs(humanBytes(double(real_.run->bytes))),
              QStringLiteral(" (seq ")})
            QVERIFY2(text.contains(part), qPrintable(part));
        // The op table's Σ t adds up to its total row, which is no wall time:
        // the busy wall is, and it fits in the run.
        QVERIFY(stats.total.wallSeconds <= run.seconds);
        QVERIFY2(text.contains(QStringLiteral("all|") + groupedNumber(stats.total.collectives) +
                               "|" + groupedNumber(stats.total.events) + "|"),
                 qPrintable(text));
    }

private:
    RunData real_, shrunk_;
};

QTEST_MAIN(TestFigureLabels)
#include "tst_figure_labels.moc"
