// SPDX-License-Identifier: Apache-2.0
// MainWindow's File ▸ New from Model Config…: the dialog, then the
// generated scenario as an unsaved document in every view.
#include <QAction>
#include <QMenu>

#include "derived/plan/scenario_document.h"
#include "new_scenario/new_from_config_dialog.h"
#include "plan_diff/plan_diff_tracker.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

void MainWindow::addNewFromConfigAction(QMenu* file) {
    QAction* action =
        addShortcutAction(file, tr("&New from Model Config…"), QKeySequence(Qt::CTRL | Qt::Key_N));
    action->setToolTip(
        tr("A scenario from a Hugging Face config.json and the torchtitan "
           "degrees, with a live preview of its plan (Ctrl+N)"));
    connect(action, &QAction::triggered, this, [this] {
        NewFromConfigDialog dialog({}, this);
        dialog.setCluster(session_->cluster());
        if (dialog.exec() == QDialog::Accepted && dialog.document())
            openGeneratedScenario(dialog.document());
    });
}

void MainWindow::openGeneratedScenario(std::shared_ptr<const Json> document) {
    if (!document || !maybeKeepEdits()) return;
    // Another document: a run of the one on screen, or its "what changed",
    // is not this one's.
    forgetRun();
    planDiffTracker_->startAfresh();
    banner_->hide();
    document_->reset(document);  // the plan's document is this one: adopted as is
    document_->markUnsaved();
    // Its first plan is a new document's: the views start from its most
    // interesting parameter, as for a file opened.
    shownPath_ = QStringLiteral("(generated)");
    session_->openDocument(std::move(document));
    updateTitle();
}

}  // namespace hsdp
