// SPDX-License-Identifier: Apache-2.0
// MainWindow's job records: File ▸ Open Job Record… (or a folder of dumps
// dropped on the window) reads a real job's Flight Recorder dumps and holds
// them against the plan on screen off the GUI thread (JobSession), for the
// Job view. The record belongs to the scenario it was checked against: an
// edit or a reload of that file checks it again, another file clears it.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "derived/job/job_session.h"
#include "derived/run/step_caption.h"
#include "job/job_widget.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

bool looksLikeJobRecord(const QStringList& paths) {
    if (paths.isEmpty()) return false;
    const QFileInfo first(paths.front());
    // A scenario is one file; a job's record is a folder (a checkpoint's
    // folder is told apart before), or dumps.
    if (first.isDir()) return true;
    QFile file(paths.front());
    if (!file.open(QIODevice::ReadOnly)) return false;
    // The first mebibyte, as the reader tells a trace from a dump.
    const QByteArray head = file.read(1 << 20);
    // A pickle starts with its PROTO opcode (protocol 2 to 5); a JSON dump
    // holds pg_config (PyTorch writes it first) or entries with their
    // profiling names (keys sorted, as run --flight-recorder writes them),
    // a Kineto trace its traceEvents.
    if (head.size() >= 2 && uchar(head[0]) == 0x80 && uchar(head[1]) >= 2 && uchar(head[1]) <= 5)
        return true;
    return head.contains("\"pg_config\"") || head.contains("\"traceEvents\"") ||
           (head.contains("\"entries\"") && head.contains("\"profiling_name\""));
}

void MainWindow::buildJobs() {
    jobSession_ = new JobSession(this);
    connect(jobSession_, &JobSession::checked, this, &MainWindow::onJobChecked);
    connect(jobSession_, &JobSession::openFailed, this, &MainWindow::onJobFailed);
    JobWidget* jobView = view<JobWidget>();
    if (!jobView) return;
    connect(jobSession_, &JobSession::busyChanged, jobView, [this, jobView](bool busy) {
        jobView->setBusy(
            busy, tr("Reading and checking %1 against the plan…").arg(jobPathsText(jobOpening_)));
    });
    connect(jobView, &JobWidget::cancelRequested, jobSession_, &JobSession::cancel);
    connect(jobView, &JobWidget::divergenceActivated, this, &MainWindow::activateDivergence);
}

QString MainWindow::jobPathsText(const QStringList& paths) {
    if (paths.size() == 1) return QFileInfo(paths.front()).fileName();
    return tr("%1 files").arg(paths.size());
}

void MainWindow::addOpenJobAction(QMenu* file) {
    openJobAction_ =
        addShortcutAction(file, tr("Open &Job Record…"), QKeySequence(Qt::CTRL | Qt::Key_J));
    openJobAction_->setToolTip(
        tr("Hold a job's PyTorch Flight Recorder dumps (a folder of them, one per rank) "
           "against this plan: the Job view lists where the job did something else (Ctrl+J)"));
    connect(openJobAction_, &QAction::triggered, this, &MainWindow::openJobDialog);
}

void MainWindow::openJobDialog() {
    if (!session_->hasResult()) return;
    const QString start = jobOpening_.isEmpty() ? QFileInfo(session_->path()).absolutePath()
                                                : QFileInfo(jobOpening_.front()).absolutePath();
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open a job record: the folder of its Flight Recorder dumps"), start);
    if (!folder.isEmpty()) openJobRecord({folder});
}

bool MainWindow::openJobRecord(const QStringList& paths) {
    if (!session_->hasResult()) {
        onJobFailed(
            tr("There is no plan to hold it against: open the scenario the job ran "
               "first."));
        return false;
    }
    completePendingPlan();
    jobOpening_ = paths;
    if (banner_->showsRunError()) banner_->hide();
    if (!jobSession_->open(session_->current(), paths)) return false;
    if (QDockWidget* jobDock = dock("job")) {
        jobDock->show();
        jobDock->raise();
    }
    return true;
}

const JobData& MainWindow::job() const {
    return jobSession_->current();
}

void MainWindow::forgetJob() {
    if (!jobSession_->current().isValid() && !jobSession_->isBusy()) return;
    jobSession_->clear();
    for (StudioView* view : views_) view->showJob({});
}

void MainWindow::onJobChecked(const JobData& job) {
    completePendingPlan();
    for (StudioView* view : views_) view->showJob(job);
    if (job.opened && isVisible())
        if (QDockWidget* jobDock = dock("job")) jobDock->raise();
    emit jobShown(job);
}

void MainWindow::onJobFailed(const QString& reason) {
    banner_->showRunError(tr("The job record was not opened."), reason);
}

// Where a run is on screen, the Steps view goes to the run's collective
// where the divergence happened; otherwise the Job view says why not.
void MainWindow::activateDivergence(int row) {
    JobWidget* jobView = view<JobWidget>();
    const JobData& shown = jobView->job();
    QString why;
    completePendingPlan();
    const int64_t seq = runSeqOfDivergence(shown, size_t(row), lastRun_, &why);
    if (seq < 0) {
        jobView->setNote(why);
        return;
    }
    SelectionState state = selection_->stateFor(shown.plan);
    state.collective = seq;
    selection_->set(state, shown.plan);
    // Two numberings meet here: the record's, per process group as PyTorch
    // counts, and the run's, run-wide; the note names both.
    jobView->setNote(tr("#%1 of its group in the record is the run's collective %2 (Steps)")
                         .arg(shown.rows.at(size_t(row)).seqId)
                         .arg(collectiveIdText(seq)));
    if (QDockWidget* steps = dock("steps")) {
        steps->show();
        steps->raise();
    }
}

}  // namespace hsdp
