// SPDX-License-Identifier: Apache-2.0
// MainWindow's File ▸ New from Checkpoint… and checkpoints dropped on the
// window: the dialog, then the scenario as an unsaved document in every view.
#include <QAction>
#include <QMenu>

#include "new_scenario/new_from_checkpoint_dialog.h"
#include "window/main_window.h"

namespace hsdp {

void MainWindow::addNewFromCheckpointAction(QMenu* file) {
    QAction* action = addShortcutAction(file, tr("New from Chec&kpoint…"),
                                        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    action->setToolTip(
        tr("A scenario from a safetensors checkpoint (file, index or folder): its tensors, "
           "read from the headers, placed on the degrees you choose or as the job saved them, "
           "with a live preview of its plan (Ctrl+Shift+N)"));
    connect(action, &QAction::triggered, this, [this] { newFromCheckpoint({}); });
}

void MainWindow::newFromCheckpoint(const QString& path) {
    NewFromCheckpointDialog dialog(path, this);
    dialog.setCluster(session_->cluster());
    if (dialog.exec() == QDialog::Accepted && dialog.document())
        openGeneratedScenario(dialog.document());
}

}  // namespace hsdp
