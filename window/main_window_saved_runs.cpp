// SPDX-License-Identifier: Apache-2.0
// MainWindow's saved runs: File ▸ Open Run… shows what `hsdp-inspect run
// --json` and `--trace` wrote (here or on another machine) in the run views,
// through the same RunSession::finished path as a run made here.
#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>

#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

namespace {

// A trace file starts with its "traceEvents" array; a run result with its
// "format". The first kilobyte tells them apart without parsing megabytes.
bool looksLikeTrace(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    return file.read(1024).contains("\"traceEvents\"");
}

}  // namespace

void MainWindow::addOpenRunAction(QMenu* file) {
    QAction* action =
        addShortcutAction(file, tr("Open R&un…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    action->setToolTip(
        tr("Show a saved run of this scenario: the result of hsdp-inspect run "
           "--json and its --trace file (Ctrl+Shift+O)"));
    connect(action, &QAction::triggered, this, &MainWindow::openRunDialog);
    connect(runSession_, &RunSession::openFailed, this, &MainWindow::onOpenRunFailed);
}

void MainWindow::openRunDialog() {
    if (!session_->hasResult()) return;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open a saved run: its run --json result and, optionally, its --trace file"),
        QFileInfo(session_->path()).absolutePath(),
        tr("Run results and traces (*.json);;All files (*)"));
    if (paths.isEmpty()) return;
    QStringList runs;
    QStringList traces;
    for (const QString& path : paths) (looksLikeTrace(path) ? traces : runs) << path;
    if (runs.size() != 1 || traces.size() > 1) {
        onOpenRunFailed(
            runs.isEmpty()
                ? tr("A trace alone has no verdicts: choose the run's result (hsdp-inspect run "
                     "--json) too, with the trace or without it.")
                : tr("Choose one run result and at most one trace; got %1 results and %2 traces.")
                      .arg(runs.size())
                      .arg(traces.size()));
        return;
    }
    openRun(runs.front(), traces.value(0));
}

bool MainWindow::openRun(const QString& runPath, const QString& tracePath) {
    if (!session_->hasResult() || !runSession_->open(session_->current(), runPath, tracePath))
        return false;
    runEpoch_ = fileEpoch_;
    if (banner_->showsRunError()) banner_->hide();
    runStatus_->setText(tr("opening %1…").arg(QFileInfo(runPath).fileName()));
    fitStatusLine();
    return true;
}

void MainWindow::onOpenRunFailed(const QString& reason) {
    updateRunStatus();  // the run on screen stays
    banner_->showRunError(tr("The saved run was not opened."), reason);
}

}  // namespace hsdp
