// SPDX-License-Identifier: Apache-2.0
// MainWindow's runs: the Run menu and toolbar, the RunSession, the progress
// in the status bar, the run's status line, the engine's error in the banner
// and the Verification dock.
#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

#include "derived/run/run_status_text.h"
#include "painting/elided_label.h"
#include "window/main_window.h"
#include "window/run_dialog.h"
#include "window/stale_banner.h"

namespace hsdp {

namespace {

constexpr int kProgressSteps = 1000;

}  // namespace

void MainWindow::buildRuns() {
    runSession_ = new RunSession(this);
    runPhase_ = new QLabel(this);
    runProgress_ = new QProgressBar(this);
    runProgress_->setRange(0, kProgressSteps);
    runProgress_->setMaximumWidth(180);
    runCancelButton_ = new QToolButton(this);
    runCancelButton_->setText(tr("Cancel"));
    runCancelButton_->setToolTip(tr("Cancel the run (Ctrl+.)"));
    runProgress_->setMinimumWidth(120);  // the lines' stretch takes the rest
    runStatus_ = new ElidedLabel(QString(), this);
    for (QWidget* widget : {static_cast<QWidget*>(runPhase_), static_cast<QWidget*>(runProgress_),
                            static_cast<QWidget*>(runCancelButton_)}) {
        statusLine_->addWidget(widget);
        widget->hide();
    }
    statusLine_->addWidget(runStatus_);  // shares the room with the plan's line: fitStatusLine

    connect(runCancelButton_, &QToolButton::clicked, runSession_, &RunSession::cancel);
    connect(runSession_, &RunSession::progress, this, &MainWindow::onRunProgress);
    connect(runSession_, &RunSession::finished, this, &MainWindow::onRunFinished);
    connect(runSession_, &RunSession::busyChanged, this, &MainWindow::updateRunActions);
    connect(session_, &Session::planReady, this, &MainWindow::updateRunActions);
}

void MainWindow::buildRunMenu() {
    QMenu* menu = menuBar()->addMenu(tr("&Run"));
    runAction_ = addShortcutAction(menu, tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R));
    runAction_->setToolTip(tr("Run the plan for real and verify every byte (Ctrl+R)"));
    runReferenceAction_ = addShortcutAction(menu, tr("Run r&eference"),
                                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    runReferenceAction_->setToolTip(
        tr("Run the reference algorithms as written, to see where they move the wrong rows "
           "(Ctrl+Shift+R)"));
    runDialogAction_ = menu->addAction(tr("Run &…"));
    runDialogAction_->setToolTip(tr("Run with a mode, timeout, budgets or an injected fault"));
    menu->addSeparator();
    // Esc already clears the selection.
    cancelRunAction_ =
        addShortcutAction(menu, tr("&Cancel run"), QKeySequence(Qt::CTRL | Qt::Key_Period));
    // Run and Run reference keep the dialog's timeout and budgets, never its fault.
    auto runWith = [this](RunMode mode) {
        RunRequest request = lastRequest_;
        request.mode = mode;
        request.fault.reset();
        startRun(request);
    };
    connect(runAction_, &QAction::triggered, this, [runWith] { runWith(RunMode::Corrected); });
    connect(runReferenceAction_, &QAction::triggered, this,
            [runWith] { runWith(RunMode::Reference); });
    connect(runDialogAction_, &QAction::triggered, this, &MainWindow::runDialog);
    connect(cancelRunAction_, &QAction::triggered, runSession_, &RunSession::cancel);

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));  // saveState() keys on it
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addActions({runAction_, runReferenceAction_, runDialogAction_, cancelRunAction_});
    updateRunActions();
}

void MainWindow::runDialog() {
    if (!session_->hasResult()) return;
    RunDialog dialog(lastRequest_, session_->current().plan->worldSize, this);
    if (dialog.exec() != QDialog::Accepted) return;
    lastRequest_ = dialog.request();
    startRun(lastRequest_);
}

bool MainWindow::startRun(const RunRequest& asked) {
    RunRequest request = asked;
    request.cluster = session_->cluster();  // the run is predicted where the plan is
    if (!session_->hasResult() || !runSession_->start(session_->current(), request)) return false;
    runEpoch_ = fileEpoch_;
    if (banner_->showsRunError()) banner_->hide();
    runPhase_->clear();
    runProgress_->setValue(0);
    runStatus_->setText(request.mode == RunMode::Reference ? tr("running (reference)…")
                                                           : tr("running…"));
    fitStatusLine();
    return true;
}

void MainWindow::onRunProgress(double fraction, const QString& phase, qint64 collectives) {
    runProgress_->setValue(static_cast<int>(fraction * kProgressSteps));
    runPhase_->setText(
        tr("%1 · %2 collectives").arg(phase, groupedNumber(static_cast<qint64>(collectives))));
}

// A cancelled run does not replace the last complete run: the views keep
// showing what was verified, the status line says what was cancelled. A run
// of a file no longer open is dropped.
void MainWindow::onRunFinished(const RunData& run) {
    if (runEpoch_ != fileEpoch_) {
        updateRunStatus();
        return;
    }
    const RunResult& result = *run.run;
    if (result.cancelled && lastRun_.isValid() && !lastRun_.run->cancelled) {
        cancelledLine_ = runStatusLine(result);
        updateRunStatus();
        return;
    }
    cancelledLine_.clear();
    lastRun_ = run;
    lastRunRequest_ = run.source.isEmpty() ? runSession_->request() : RunRequest{};
    showRun(run);
    updateRunStatus();
    if (!result.error.empty() && !result.cancelled)
        banner_->showRunError(result.errorRank >= 0 ? tr("The run failed on rank %1; the "
                                                         "Verification panel shows what was "
                                                         "checked before.")
                                                          .arg(result.errorRank)
                                                    : tr("The run failed."),
                              runErrorText(result));
    // The panel comes to the front of its tabs, unless the user closed it.
    QDockWidget* dock = this->dock("verification");
    if (dock && dock->toggleViewAction()->isChecked()) dock->raise();
    emit runReady(lastRun_);
}

void MainWindow::forgetRun() {
    ++fileEpoch_;
    if (runSession_->isBusy()) runSession_->cancel();
    cancelledLine_.clear();
    if (!lastRun_.isValid()) return;
    lastRun_ = {};
    showRun({});
    updateRunStatus();
    if (banner_->showsRunError()) banner_->hide();
}

QString MainWindow::runStatusText(bool brief) const {
    QString line;
    if (lastRun_.isValid())
        line = lastRun_.source.isEmpty() ? runStatusLine(*lastRun_.run, brief)
                                         : tr("saved run %1 · %2")
                                               .arg(QFileInfo(lastRun_.source).fileName(),
                                                    runStatusLine(*lastRun_.run, brief));
    // Kept over a reload or an edit: the line says it is not this plan's.
    if (lastRun_.isValid() && lastRun_.plan.plan != session_->current().plan)
        line += tr(" · a run of an earlier plan");
    if (cancelledLine_.isEmpty()) return line;
    return tr("%1 · shown: the last complete run, %2").arg(cancelledLine_, line);
}

// The line as the status bar shows it: what qualifies its figures first (a
// shrunk run's, an earlier plan's), so a narrow window that shortens the
// line at its end never drops them, then the verdict's counts and the wall
// time; every figure is the tooltip (and the Verification view's).
void MainWindow::updateRunStatus() {
    const QString line = runStatusText(true);
    QStringList first;
    if (lastRun_.isValid() && lastRun_.plan.plan != session_->current().plan)
        first << tr("a run of an earlier plan");
    if (lastRun_.isValid() && lastRun_.run->shrink) first << tr("shrunk run");
    runStatus_->setText(first.isEmpty() ? line
                                        : QStringLiteral("[%1] %2").arg(first.join(", "), line));
    runStatus_->setToolTip(runStatusText());
    fitStatusLine();
}

void MainWindow::updateRunActions() {
    const bool busy = runSession_->isBusy();
    const bool canRun = session_->hasResult() && !busy;
    for (QAction* action : {runAction_, runReferenceAction_, runDialogAction_})
        if (action) action->setEnabled(canRun);
    if (cancelRunAction_) cancelRunAction_->setEnabled(busy);
    runPhase_->setVisible(busy);
    runProgress_->setVisible(busy);
    runCancelButton_->setVisible(busy);
}

}  // namespace hsdp
