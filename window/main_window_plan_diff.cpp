// SPDX-License-Identifier: Apache-2.0
// MainWindow's "What changed" dock: the PlanDiffTracker fed by the session,
// the panel, and File ▸ Compare with….
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

#include "plan_diff/plan_diff_tracker.h"
#include "plan_diff/plan_diff_widget.h"
#include "window/main_window.h"

namespace hsdp {

void MainWindow::buildPlanDiff() {
    QDockWidget* dock = this->dock("planDiff");
    connect(session_, &Session::planReady, planDiffTracker_, &PlanDiffTracker::planArrived);
    connect(view<PlanDiffWidget>(), &PlanDiffWidget::compareRequested, this,
            &MainWindow::compareDialog);
    // A plan that moved something brings the panel to the front of its tabs,
    // unless the user closed it (a tab behind another is not visible, yet open).
    connect(planDiffTracker_, &PlanDiffTracker::diffReady, dock,
            [dock](const PlanDiffTable& change) {
                if (change.isValid() && !change.same() && dock->toggleViewAction()->isChecked())
                    dock->raise();
            });
    connect(planDiffTracker_, &PlanDiffTracker::compareFailed, dock, [dock] {
        dock->show();
        dock->raise();
    });
}

void MainWindow::addCompareActions(QMenu* file) {
    connect(addShortcutAction(file, tr("&Compare with…"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D)),
            &QAction::triggered, this, &MainWindow::compareDialog);
    connect(file->addAction(tr("Compare with the &previous plan")), &QAction::triggered,
            planDiffTracker_, &PlanDiffTracker::compareSinceLastChange);
}

void MainWindow::compareDialog() {
    QString start =
        session_->path().isEmpty() ? QString() : QFileInfo(session_->path()).absolutePath();
    QString path = QFileDialog::getOpenFileName(this, tr("Compare the current plan with"), start,
                                                tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty()) compareWith(path);
}

void MainWindow::compareWith(const QString& path) {
    planDiffTracker_->compareWith(path);
    dock("planDiff")->show();
    dock("planDiff")->raise();
}

}  // namespace hsdp
