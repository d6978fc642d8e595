// SPDX-License-Identifier: Apache-2.0
// File ▸ Export Report…: the plan on screen (edits included) and its last
// run as one HTML or PDF document, the same hsdp-inspect report writes.
// The views draw the pictures, so it renders on the GUI thread: measured at
// 0.2 s for the teaching sample and 1.3-1.6 s for the 70B sample with its
// run (PDF), under a busy cursor.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>

#include "derived/plan/plan_result.h"
#include "derived/plan/scenario_document.h"
#include "derived/run/run_session.h"
#include "report/report_file.h"
#include "window/main_window.h"

namespace hsdp {

namespace {

QString quoted(const QString& word) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./=:,+-]+$"));
    if (plain.match(word).hasMatch()) return word;
    return QLatin1Char('\'') + QString(word).replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
           QLatin1Char('\'');
}

}  // namespace

void MainWindow::addReportAction(QMenu* file) {
    reportAction_ =
        addShortcutAction(file, tr("&Export Report…"), QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(reportAction_, &QAction::triggered, this, &MainWindow::exportReportDialog);
}

void MainWindow::exportReportDialog() {
    const PlanResult& result = session_->current();
    if (!result.isValid()) {
        QMessageBox::information(this, tr("Export Report"), tr("Open a scenario first."));
        return;
    }
    const QString start = suggestedReportPath();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Report"), start, tr("HTML report (*.html);;PDF report (*.pdf)"));
    if (!path.isEmpty()) exportReport(path);
}

QString MainWindow::suggestedReportPath() const {
    return suggestedExportPath(QStringLiteral("-report.html"));
}

// Named after the scenario file, or for an unsaved scenario after its name
// (or "untitled"), in exportFolder(): never beside the scenario, whose folder
// is often the clone's samples/, where a new user would not look for it.
QString MainWindow::suggestedExportPath(const QString& ending) const {
    QString name = QFileInfo(session_->path()).completeBaseName();
    if (session_->path().isEmpty()) {
        const auto& scenario = session_->current().scenario;  // none before a file opens
        name = scenario ? QString::fromStdString(scenario->name) : QString();
        name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
        name.remove(QRegularExpression(QStringLiteral("^[._]+|_+$")));
        if (name.isEmpty()) name = documentName({});
    }
    return QDir(exportFolder()).filePath(name + ending);
}

// The hsdp-inspect command that writes the same report from the saved file:
// with --run only for a run it repeats. A cancelled run is not one: the
// command writes the plan's report and the note says so. An unsaved
// scenario has no file to name: the command says where it goes.
QString MainWindow::reportCommand(const QString& output, const RunData& run) const {
    const QString scenario =
        session_->path().isEmpty() ? QStringLiteral("SAVED_SCENARIO.json") : session_->path();
    QString command =
        QStringLiteral("hsdp-inspect report %1 -o %2").arg(quoted(scenario), quoted(output));
    // The plan's prediction is the chosen cluster's.
    if (session_->cluster()) command += QStringLiteral(" --cluster %1").arg(quoted(clusterChoice_));
    if (run.isValid() && !run.run->cancelled)
        command += QStringLiteral(" --run --mode %1")
                       .arg(QString::fromLatin1(runModeName(run.run->mode).data()));
    // The job record's folder (dropped files: the folder they go in together).
    if (const JobData& checked = job(); checked.isValid())
        command += QStringLiteral(" --job %1")
                       .arg(checked.paths.size() == 1 ? quoted(checked.paths.front())
                                                      : QStringLiteral("DUMPS_FOLDER"));
    return command;
}

// What the report says about the plan it shows, before its run: a scenario
// never saved, unsaved edits, a file or an edit that no longer reads (the
// plan is then the last one that did), a run left out.
QStringList MainWindow::reportPlanNotes(bool runLeftOut) const {
    QStringList notes;
    if (session_->path().isEmpty())
        notes << tr(
            "The scenario is not saved (untitled): save it first (File ▸ Save As…), then the "
            "command, with its file in place of SAVED_SCENARIO.json, reproduces this report.");
    else if (document_->isModified())
        notes << tr(
            "The studio's scenario has unsaved edits: the command reproduces this report "
            "once they are saved.");
    if (session_->isStale())
        notes << (session_->lastErrorFromEdit()
                      ? tr("The edited scenario no longer reads (%1): this report shows the last "
                           "plan that did.")
                      : tr("The scenario file no longer reads (%1): this report shows the last "
                           "plan it gave, and the command fails until the file reads again."))
                     .arg(session_->lastError());
    if (runLeftOut)
        notes << tr(
            "A run of an earlier plan of this scenario exists and was not included: this "
            "report's plan has not been run.");
    return notes;
}

bool MainWindow::exportReport(const QString& path, bool quiet) {
    ReportInput input;
    input.plan = session_->current();
    if (!input.plan.isValid()) return false;
    // Only a run of the very plan reported: one of an earlier plan (kept on
    // screen, marked so) would claim verdicts this plan never earned.
    const bool runOfThisPlan = lastRun_.isValid() && lastRun_.plan.plan == input.plan.plan;
    if (runOfThisPlan) input.run = lastRun_;
    // The job record as checked against this very plan (a re-check under way: none).
    if (job().isValid() && job().plan.plan == input.plan.plan) input.job = job();
    // A reference run is drawn against the last corrected run of the same plan.
    const RunData& corrected = lastCorrectedRun_;
    if (runOfThisPlan && lastRun_.run->mode == RunMode::Reference && corrected.isValid() &&
        corrected.plan.plan == lastRun_.plan.plan)
        input.comparison = corrected;
    input.command = reportCommand(path, input.run);
    QStringList notes = reportPlanNotes(lastRun_.isValid() && !runOfThisPlan);
    if (input.run.isValid() && input.run.run->cancelled)
        notes << tr(
            "The run was cancelled: the command writes the plan's report without it (add --run "
            "to run it to the end).");
    const RunRequest& ran = lastRunRequest_;
    const RunRequest defaults;
    if (input.run.isValid() &&
        (ran.timeout != defaults.timeout || ran.maxBytes != defaults.maxBytes ||
         ran.flopBudget != defaults.flopBudget || ran.fault))
        notes << tr(
            "The run used options of Run▸Run… (timeout, memory budget or an injected "
            "fault) the command does not repeat.");
    input.commandNote = notes.join(QLatin1Char(' '));
    statusBar()->showMessage(tr("Writing the report to %1…").arg(path));
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const ReportFileResult written = writeReportFile(input, path);
    QApplication::restoreOverrideCursor();
    if (!written.error.isEmpty()) {
        statusBar()->clearMessage();
        if (!quiet) QMessageBox::warning(this, tr("Export Report failed"), written.error);
        return false;
    }
    rememberExportFolder(path);
    statusBar()->showMessage(
        tr("Report written to %1 (%2 s)").arg(path).arg(written.seconds, 0, 'f', 1), 10000);
    return true;
}

}  // namespace hsdp
