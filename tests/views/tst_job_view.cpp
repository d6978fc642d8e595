// SPDX-License-Identifier: Apache-2.0
// The Job view, offscreen: a job's Flight Recorder dumps (written here as
// `hsdp-inspect run --flight-recorder` writes them, from a run of the
// window's own plan) opened in the window. A clean record is all matched; a
// record with a collective taken out of one rank and another's sizes changed
// lists a missing and a size divergence, the first selected with its params
// in the shared selection; activating it says why there is no step before a
// run and moves the Steps view to its collective after one. A truncated dump
// is refused in the banner and the window stays usable; a dropped folder
// opens; a reload re-checks the record, another file clears it.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>
#include <algorithm>
#include <set>

#include "derived/job/job_session.h"
#include "export/flight_recorder_export.h"
#include "job/job_widget.h"
#include "job_check/run_dump.h"
#include "job_record/flight_recorder_writer.h"
#include "mesh/mesh_widget.h"
#include "run/runner.h"
#include "run_budget.h"
#include "steps/step_widget.h"
#include "studio_test_util.h"
#include "timeline_picture.h"
#include "trace/predicted_timeline_widget.h"
#include "trace/trace_canvas.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

// The dumps a run of `plan` leaves, one per rank, as run --flight-recorder writes them.
std::vector<FlightRecorderDump> runDumps(const PlanResult& plan,
                                         std::optional<FaultSpec> fault = std::nullopt) {
    RunOptions runOptions;
    runOptions.fault = fault;
    const RunResult run =
        runPlan(*plan.scenario, *plan.plan, testing::budgetedRunOptions(runOptions));
    RunDump dump = runDumpAtRealShapes(*plan.scenario, *plan.plan, run.trace, run.paramShapes,
                                       run.tpShapes, !run.error.empty(), run.errorRank);
    FlightRecorderExportOptions options;
    options.runStartNs = 1733500000000000000;
    options.buffers = std::move(dump.buffers);
    options.pending = std::move(dump.pending);
    return runFlightRecorderDumps(dump.trace, *plan.scenario, run.worldSize, options);
}

bool writeDumps(const QString& dir, const std::vector<FlightRecorderDump>& dumps) {
    QDir().mkpath(dir);
    for (size_t r = 0; r < dumps.size(); ++r) {
        QFile file(QDir(dir).filePath(QStringLiteral("nccl_trace_rank_%1.json").arg(r)));
        if (!file.open(QIODevice::WriteOnly)) return false;
        const std::string text = writeFlightRecorderJson(dumps[r]);
        file.write(text.data(), qint64(text.size()));
    }
    return true;
}

// Entry `at` leaves the dump: the later ones of its group are numbered one
// lower, as a recorder numbers what the rank really called.
void removeEntry(FlightRecorderDump& dump, size_t at) {
    const std::string group = dump.entries[at].pgName;
    dump.entries.erase(dump.entries.begin() + std::ptrdiff_t(at));
    for (size_t i = at; i < dump.entries.size(); ++i)
        if (dump.entries[i].pgName == group) --dump.entries[i].collectiveSeqId;
}

JobData openAndWaitJob(MainWindow& window, const QStringList& paths) {
    QSignalSpy shown(&window, &MainWindow::jobShown);
    if (!window.openJobRecord(paths) || !shown.wait(60000)) return {};
    return shown.takeFirst().at(0).value<JobData>();
}

bool hasRow(const JobData& job, const char* kind, int64_t rank) {
    return std::any_of(job.rows.begin(), job.rows.end(), [&](const JobDivergenceRow& row) {
        return row.kindName == QLatin1String(kind) && row.rank == rank;
    });
}

}  // namespace

class TestJobView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aCleanRecordIsAllMatched();
    void theRecordedTimelineIsDrawnAboveThePrediction();
    void divergencesAreListedAndSelected();
    void activatingGoesToTheStep();
    void anUnreadableRecordIsRefused();
    void aDroppedFolderOpens();
    void theReportHasTheJobCheck();
    void cancelDropsTheCheck();
    void aRankShortOfAStepIsNotAsPlanned();
    void aDivergenceSelectsTheParamsItsCollectiveCarried();
    void aReloadRechecksAndAnotherFileClears();

private:
    QTemporaryDir dir_;
    QString clean_, broken_, truncated_;
    std::unique_ptr<MainWindow> window_;
    JobWidget* view_ = nullptr;
};

void TestJobView::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    QVERIFY(openAndWait(*window_, sample(QStringLiteral("teaching_2x2.json"))));
    view_ = window_->view<JobWidget>();
    QVERIFY(view_);

    std::vector<FlightRecorderDump> dumps = runDumps(window_->session()->current());
    QCOMPARE(dumps.size(), size_t(4));
    clean_ = dir_.filePath(QStringLiteral("clean"));
    QVERIFY(writeDumps(clean_, dumps));
    // Rank 2 skips its first collective; rank 1's last one has other sizes.
    QVERIFY(!dumps[2].entries.empty() && !dumps[1].entries.empty());
    removeEntry(dumps[2], 0);
    dumps[1].entries.back().inputSizes.at(0).at(0) += 1;
    broken_ = dir_.filePath(QStringLiteral("broken"));
    QVERIFY(writeDumps(broken_, dumps));
    // A dump cut in the middle, as a copy that did not finish leaves it.
    truncated_ = dir_.filePath(QStringLiteral("truncated"));
    QVERIFY(writeDumps(truncated_, dumps));
    QFile cut(QDir(truncated_).filePath(QStringLiteral("nccl_trace_rank_0.json")));
    QVERIFY(cut.open(QIODevice::ReadWrite));
    QVERIFY(cut.resize(cut.size() / 2));
}

void TestJobView::aCleanRecordIsAllMatched() {
    QAbstractItemModelTester divergenceTester(
        view_->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester cellTester(view_->cellModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    const JobData job = openAndWaitJob(*window_, {clean_});
    QVERIFY(job.isValid());
    QCOMPARE(job.ranks, int64_t(4));
    QVERIFY(job.recorded > 0);
    QCOMPARE(job.matched, job.recorded);
    QVERIFY(job.rows.empty());
    QCOMPARE(view_->model()->rowCount(), 0);
    QVERIFY2(view_->summaryText().contains(QStringLiteral("0 divergences")),
             qPrintable(view_->summaryText()));
    QVERIFY(view_->summaryText().contains(QStringLiteral("4 ranks")));
    // Every rank of every recorded group as planned: muted, "as planned".
    QVERIFY(view_->cellModel()->rowCount() > 0);
    for (int row = 0; row < view_->cellModel()->rowCount(); ++row) {
        const QModelIndex done = view_->cellModel()->index(row, JobCellModel::DivergencesColumn);
        QCOMPARE(done.data().toString(), QStringLiteral("as planned"));
        QCOMPARE(view_->cellModel()->index(row, JobCellModel::RecordedColumn).data().toString(),
                 view_->cellModel()->index(row, JobCellModel::PlannedColumn).data().toString());
    }
}

// A record with timings (Flight Recorder with timing on, as run
// --flight-recorder writes a real-size run's) opens the predicted timeline on
// the job: every timed entry an event on its rank's row, under a title that
// says what it is, drawn in the "job" picture; without timings there is
// nothing to draw and the view stays on the plan.
void TestJobView::theRecordedTimelineIsDrawnAboveThePrediction() {
    auto* view = window_->view<PredictedTimelineWidget>();
    QVERIFY(view);
    const JobData job = openAndWaitJob(*window_, {clean_});
    QVERIFY(job.recordedRun);
    QCOMPARE(job.timedEntries, job.matched);
    QVERIFY(view->canShowJob());
    QCOMPARE(view->shown(), PredictedTimelineWidget::Shown::Job);
    const TraceTimeline* recorded = view->recordedCanvas()->timeline();
    QVERIFY(recorded);
    QCOMPARE(recorded->rowCount(), 4);
    QCOMPARE(int64_t(recorded->eventCount()), job.timedEntries);
    QVERIFY2(view->recordedTitle().startsWith(QStringLiteral("Recorded by the job (training step "
                                                             "1, ")),
             qPrintable(view->recordedTitle()));
    // One time axis above and below: both windows reach the later end.
    const double later =
        std::max(view->recordedCanvas()->timelineEndUs(), view->planCanvas()->timelineEndUs());
    QVERIFY(view->recordedCanvas()->timelineEndUs() != view->planCanvas()->timelineEndUs());
    QCOMPARE(view->recordedCanvas()->windowStart(), view->planCanvas()->windowStart());
    QCOMPARE(view->recordedCanvas()->windowEnd(), view->planCanvas()->windowEnd());
    QVERIFY(view->planCanvas()->windowEnd() >= later);
    QVERIFY2(view->caption().contains(QStringLiteral("one time axis")),
             qPrintable(view->caption()));
    // Its caption and titles are whole in the dock: they wrap, and have the
    // height their lines take (beside the combo box the caption was cut).
    QApplication::processEvents();
    for (const QLabel* label : view->findChildren<QLabel*>()) {
        if (label->isHidden() || label->text().isEmpty()) continue;
        const int needed =
            label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().height();
        QVERIFY2(label->wordWrap() || label->width() >= label->sizeHint().width(),
                 qPrintable(label->text()));
        QVERIFY2(label->height() >= needed, qPrintable(QStringLiteral("%1 px for %2 px: %3")
                                                           .arg(label->height())
                                                           .arg(needed)
                                                           .arg(label->text())));
    }
    QVERIFY(view->screenshots().size() >= 1);
    {
        // The picture shares the axis whichever the view shows on screen:
        // each timeline's bars end where its end falls on the common axis.
        view->setShown(PredictedTimelineWidget::Shown::Plan);
        const QSize size(1200, 600);
        const QImage picture = view->picture(size, QStringLiteral("job"));
        const auto areas = PredictedTimelineWidget::runPicture(size);
        const double drawn = double(testing::rightmostBar(picture, areas.predicted)) /
                             testing::rightmostBar(picture, areas.measured);
        const double ends =
            view->planCanvas()->timelineEndUs() / view->recordedCanvas()->timelineEndUs();
        QVERIFY2(std::abs(drawn - ends) < 0.1,
                 qPrintable(QStringLiteral("bars end at %1 of each other, timelines at %2")
                                .arg(drawn)
                                .arg(ends)));
        view->setShown(PredictedTimelineWidget::Shown::Job);
    }
    const QSize size = view->fittedPictureSize(QSize(1200, 600), QStringLiteral("job"));
    const QImage picture = view->picture(size, QStringLiteral("job"));
    const auto area = PredictedTimelineWidget::runPicture(size).measured;
    int coloured = 0;  // the recorded bars: saturated pixels in the upper timeline
    for (int y = area.top(); y <= area.bottom(); y += 2)
        for (int x = area.left(); x <= area.right(); x += 2)
            coloured += QColor(picture.pixel(x, y)).saturation() > 80;
    QVERIFY2(coloured > 100, qPrintable(QString::number(coloured)));

    // The same record without durations: nothing to draw.
    std::vector<FlightRecorderDump> dumps = runDumps(window_->session()->current());
    for (auto& dump : dumps)
        for (auto& e : dump.entries) e.durationMs.reset();
    const QString untimed = dir_.filePath(QStringLiteral("untimed"));
    QVERIFY(writeDumps(untimed, dumps));
    const JobData off = openAndWaitJob(*window_, {untimed});
    QVERIFY(off.isValid() && !off.recordedRun);
    QCOMPARE(off.untimedEntries, off.matched);
    QVERIFY(!view->canShowJob());
    QCOMPARE(view->shown(), PredictedTimelineWidget::Shown::Plan);

    // A hung job without durations (a shrunk run's dumps): its open entries
    // alone have no time axis, and are not drawn at the step's start.
    std::vector<FlightRecorderDump> hung = runDumps(window_->session()->current(), FaultSpec{2, 3});
    for (auto& dump : hung)
        for (auto& e : dump.entries) e.durationMs.reset();
    const QString hungUntimed = dir_.filePath(QStringLiteral("hung-untimed"));
    QVERIFY(writeDumps(hungUntimed, hung));
    const JobData stuck = openAndWaitJob(*window_, {hungUntimed});
    QVERIFY(stuck.isValid() && stuck.openEntries > 0);
    QVERIFY(!stuck.recordedRun);
    QVERIFY(!view->canShowJob());
}

void TestJobView::divergencesAreListedAndSelected() {
    QAbstractItemModelTester tester(view_->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    const JobData job = openAndWaitJob(*window_, {broken_});
    QVERIFY(job.isValid());
    QVERIFY2(hasRow(job, "missing", 2), qPrintable(view_->summaryText()));
    QVERIFY2(hasRow(job, "size", 1), qPrintable(view_->summaryText()));
    QCOMPARE(view_->model()->rowCount(), int(job.rows.size()));
    // The mesh marks the rank to look at first, and only that one.
    const RankFaults& marked = window_->view<MeshWidget>()->canvas()->faults();
    QCOMPARE(marked.ranks, std::vector<int>{int(job.rows.front().rank)});
    QVERIFY2(marked.label.startsWith(
                 QStringLiteral("the job's first divergence (rank %1").arg(job.rows.front().rank)),
             qPrintable(marked.label));
    // The first divergence is on top, marked, current, and selected everywhere.
    const JobDivergenceRow& first = job.rows.front();
    QVERIFY(first.first);
    QVERIFY(view_->model()->index(0, 0).data().toString().contains(QStringLiteral("(first)")));
    QVERIFY(view_->summaryText().contains(QStringLiteral("first: ") + first.sentence));
    QCOMPARE(view_->currentRow(), 0);
    QVERIFY(!first.sentence.isEmpty());
    QVERIFY(first.expected >= 0);
    const PlanSelection& selection = *window_->selection();
    if (first.transition >= 0) {
        QCOMPARE(selection.transition(), first.transition);
    } else {
        QVERIFY(!first.params.empty());
        QCOMPARE(selection.params(), first.params);
    }
    // Each row selects the params its collective carried, which its sentence
    // names: the focus is one of them, not its batch's first param.
    for (const JobDivergenceRow& row : job.rows) {
        if (row.params.empty()) continue;
        const QString focus = QString::fromStdString(
            window_->session()->current().scenario->params.at(size_t(row.params.front())).name);
        QVERIFY2(row.sentence.contains(focus), qPrintable(focus + " / " + row.sentence));
        QCOMPARE(selection.batch(), first.batch);
        QCOMPARE(selection.group(), first.group);
    }
    std::vector<int> ranks(first.groupRanks.begin(), first.groupRanks.end());
    QCOMPARE(selection.ranks(), ranks);
    // The cells of the ranks it happened on are counted, the others matched.
    int withDivergences = 0;
    for (const JobCell& cell : job.cells)
        if (cell.divergences > 0) {
            ++withDivergences;
            QVERIFY(cell.rank == 1 || cell.rank == 2);
        }
    QVERIFY(withDivergences >= 2);
    // Selecting another row selects what it names.
    const int other = int(job.rows.size()) - 1;
    view_->setCurrentRow(other);
    std::vector<int> otherRanks(job.rows.back().groupRanks.begin(),
                                job.rows.back().groupRanks.end());
    QCOMPARE(selection.ranks(), otherRanks);
    view_->setCurrentRow(0);
}

void TestJobView::activatingGoesToTheStep() {
    // Without a run there is no step to go to, and the view says so.
    QVERIFY(!window_->lastRun().isValid());
    emit view_->divergenceActivated(0);
    QVERIFY2(view_->note().contains(QStringLiteral("No run")), qPrintable(view_->note()));

    QSignalSpy ran(window_.get(), &MainWindow::runReady);
    QVERIFY(window_->startRun(RunRequest{}));
    QVERIFY(ran.wait(60000));
    // Enter on the current divergence, as the user activates it.
    view_->divergenceView()->setFocus();
    QTest::keyClick(view_->divergenceView(), Qt::Key_Return);
    const int64_t seq = window_->selection()->collective();
    QVERIFY(seq >= 0);
    // The record's number (per group) and the run's (run-wide) are both named.
    QCOMPARE(view_->note(), QStringLiteral("#%1 of its group in the record is the run's "
                                           "collective seq %2 (Steps)")
                                .arg(window_->job().rows.front().seqId)
                                .arg(seq));
    auto* steps = window_->view<StepWidget>();
    QVERIFY(steps->currentStep() >= 0);
    QCOMPARE(steps->steps()[size_t(steps->currentStep())].seq, seq);
    // The step is the plan's collective there, on the divergence's group.
    const JobData& job = window_->job();
    const JobDivergenceRow& first = job.rows.front();
    bool found = false;
    for (const TraceEvent& e : window_->lastRun().run->trace.events)
        if (e.seq == seq) {
            std::vector<int64_t> members(e.groupRanks.begin(), e.groupRanks.end());
            std::sort(members.begin(), members.end());
            QCOMPARE(members, first.groupRanks);
            found = true;
        }
    QVERIFY(found);
}

void TestJobView::anUnreadableRecordIsRefused() {
    const JobData before = window_->job();
    QSignalSpy failed(window_->jobSession(), &JobSession::openFailed);
    QVERIFY(window_->openJobRecord({truncated_}));
    QVERIFY(failed.wait(60000));
    const QString message = failed.takeFirst().at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("nccl_trace_rank_0")), qPrintable(message));
    QVERIFY(window_->banner()->isVisibleTo(window_.get()));
    QVERIFY(window_->banner()->message().contains(QStringLiteral("nccl_trace_rank_0")));
    // The record on screen stays, and the window goes on.
    QCOMPARE(window_->job().rows.size(), before.rows.size());
    QVERIFY(!window_->jobSession()->isBusy());
    QVERIFY(openAndWaitJob(*window_, {clean_}).isValid());
    QVERIFY(!window_->banner()->isVisibleTo(window_.get()));
}

void TestJobView::aDroppedFolderOpens() {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(broken_)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QSignalSpy shown(window_.get(), &MainWindow::jobShown);
    QApplication::sendEvent(window_.get(), &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(shown.wait(60000));
    QVERIFY(hasRow(window_->job(), "missing", 2));
    QCOMPARE(window_->job().paths, QStringList{broken_});
    // A scenario file is still a scenario.
    QVERIFY(!looksLikeJobRecord({sample(QStringLiteral("teaching_2x2.json"))}));
    QVERIFY(looksLikeJobRecord({QDir(broken_).filePath(QStringLiteral("nccl_trace_rank_1.json"))}));
}

void TestJobView::theReportHasTheJobCheck() {
    const JobData& job = window_->job();
    QVERIFY(hasRow(job, "missing", 2));
    const QString path = dir_.filePath(QStringLiteral("report.html"));
    QVERIFY(window_->exportReport(path, true));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(file.readAll());
    QVERIFY(html.contains(QStringLiteral("id=\"job-check\"")));
    QVERIFY(html.contains(job.rows.front().sentence.toHtmlEscaped()));
    QVERIFY(html.contains(QStringLiteral("--job")));
}

void TestJobView::cancelDropsTheCheck() {
    const QString before = view_->summaryText();
    QSignalSpy shown(window_.get(), &MainWindow::jobShown);
    QVERIFY(window_->openJobRecord({clean_}));
    // While it reads, the view says so and offers Cancel.
    QVERIFY(window_->jobSession()->isBusy());
    QVERIFY2(view_->summaryText().startsWith(QStringLiteral("Reading and checking clean")),
             qPrintable(view_->summaryText()));
    emit view_->cancelRequested();
    QVERIFY(!window_->jobSession()->isBusy());
    QCOMPARE(view_->summaryText(), before);
    QTest::qWait(1000);
    QCOMPARE(shown.count(), 0);
    QVERIFY(hasRow(window_->job(), "missing", 2));  // the record on screen stays
}

void TestJobView::aReloadRechecksAndAnotherFileClears() {
    QSignalSpy shown(window_.get(), &MainWindow::jobShown);
    window_->session()->reload();
    QVERIFY(shown.wait(60000));
    const JobData rechecked = window_->job();
    QVERIFY(!rechecked.opened);
    QCOMPARE(rechecked.plan.plan, window_->session()->current().plan);
    QVERIFY(hasRow(rechecked, "missing", 2));

    QVERIFY(openAndWait(*window_, sample(QStringLiteral("llama3_8b_hsdp_2x4.json"))));
    QVERIFY(!window_->job().isValid());
    QVERIFY(!view_->job().isValid());
    QCOMPARE(view_->model()->rowCount(), 0);
    QVERIFY(view_->summaryText().contains(QStringLiteral("No job record")));
}

// A run that failed on rank 2 at an owner's update broadcast: its first
// divergence names the param that broadcast carried, and selecting it
// focuses that param, not its batch's first (embed.weight, elsewhere).
void TestJobView::aDivergenceSelectsTheParamsItsCollectiveCarried() {
    const QString hung = dir_.filePath(QStringLiteral("hung"));
    QVERIFY(writeDumps(hung, runDumps(window_->session()->current(), FaultSpec{2, 3})));
    const JobData job = openAndWaitJob(*window_, {hung});
    QVERIFY(job.isValid() && !job.rows.empty());
    const JobDivergenceRow& first = job.rows.front();
    QVERIFY(!first.params.empty());
    const auto& params = window_->session()->current().scenario->params;
    const QString focus = QString::fromStdString(params.at(size_t(first.params.front())).name);
    QVERIFY2(first.sentence.contains(QStringLiteral("(%1)").arg(focus)),
             qPrintable(focus + " / " + first.sentence));
    QCOMPARE(window_->selection()->focusParam(), first.params.front());
    // The recorded timeline marks where that rank's record stops.
    QVERIFY(job.recordedRun);
    QCOMPARE(job.recordedRun->errorRank, int(first.rank));
    auto* timeline = window_->view<PredictedTimelineWidget>();
    QVERIFY(timeline->canShowJob());
    QVERIFY(!timeline->recordedCanvas()->failureMarkOf(QSize(1200, 400)).isEmpty());
}

// A rank that recorded less than a step in a group, with nothing listed
// there (it stopped earlier: a hang elsewhere), is not "as planned".
void TestJobView::aRankShortOfAStepIsNotAsPlanned() {
    JobData job;
    job.cells = {JobCell{{1, 3}, QStringLiteral("[1, 3] dp_replicate"), 3, 0, 4, 0, -1},
                 JobCell{{1, 3}, QStringLiteral("[1, 3] dp_replicate"), 1, 4, 4, 0, -1}};
    JobCellModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setJob(job);
    const auto text = [&](int row) {
        return model.index(row, JobCellModel::DivergencesColumn).data().toString();
    };
    QCOMPARE(text(0), QStringLiteral("none listed; recorded 0 of 4"));
    QCOMPARE(text(1), QStringLiteral("as planned"));
    QVERIFY(!model.index(0, JobCellModel::DivergencesColumn).data(Qt::ForegroundRole).isValid());
}

QTEST_MAIN(TestJobView)
#include "tst_job_view.moc"
