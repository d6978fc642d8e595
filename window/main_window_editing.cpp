// SPDX-License-Identifier: Apache-2.0
// MainWindow's what-if editing: the edited document, its panel, undo/redo,
// saving, and the prompts that keep unsaved edits from being lost.
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

#include "derived/plan/scenario_document.h"
#include "editing/edit_widget.h"
#include "export/scenario_json_text.h"
#include "plan_diff/plan_diff_tracker.h"
#include "scenario/reader.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

void MainWindow::buildEditing() {
    connect(document_, &ScenarioDocument::valueChanged, this, &MainWindow::onDocumentEdited);
    connect(editing_, &EditWidget::textErrorChanged, this, &MainWindow::showEditTextError);
    // A new edit step (not a keystroke merged into the current one), an undo
    // or a redo (buildEditMenu): "what changed" counts from the plan on screen
    // then. (QUndoStack::indexChanged would not do: it fires on merges too.)
    connect(document_, &ScenarioDocument::editStepStarted, planDiffTracker_,
            &PlanDiffTracker::pinBaseline);
    connect(document_, &ScenarioDocument::documentReset, planDiffTracker_,
            &PlanDiffTracker::unpinBaseline);
    connect(document_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        session_->setFollowsFile(!modified);
        setWindowModified(modified);
        updateTitle();
    });
    connect(session_, &Session::fileChangedOnDisk, this, [this] {
        banner_->showNotice(tr("%1 changed on disk. Your unsaved edits are kept; File ▸ Reload "
                               "discards them and reads the file.")
                                .arg(QFileInfo(session_->path()).fileName()));
    });
}

void MainWindow::buildEditMenu(QMenu* edit) {
    QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    undo->setShortcut(QKeySequence::Undo);
    redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    for (QAction* action : {undo, redo}) {
        connect(action, &QAction::triggered, planDiffTracker_, &PlanDiffTracker::pinBaseline);
        edit->addAction(action);
    }
    shortcutActions_ << undo << redo;
    // The what-if fields' keyboard route: F2, then Tab from field to field.
    connect(addShortcutAction(edit, tr("Edit the &scenario"), QKeySequence(Qt::Key_F2)),
            &QAction::triggered, this, [this] {
                dock("editing")->show();
                dock("editing")->raise();
                editing_->focusFirstField();
            });
    edit->addSeparator();
}

// Every edit, undo and redo re-plans the whole document off the GUI thread;
// a newer edit replaces a plan still queued (JobTracker). An error then names
// `pointer`, the field just changed. A text that is no value puts the
// value from before the edit back without a plan: the last valid plan (of a
// valid text typed before it in the same field) stays on screen, and a plan
// still under way of the prefix typed past ("2" of "2, two") is dropped.
void MainWindow::onDocumentEdited(const QString& pointer) {
    if (document_->isReverting()) {
        session_->dropPendingPlans();  // of the value typed past: neither shown nor adopted
        return;
    }
    session_->planDocument(document_->snapshot(), pointer);
}

// A field whose text is no value: the banner says so until it is one again.
void MainWindow::showEditTextError(const QString& message) {
    if (!message.isEmpty())
        banner_->showTextError(message);
    else if (banner_->showsTextError())
        banner_->hide();
}

// A plan read from disk brings the file's document. The panel adopts it unless
// it is what the panel already holds (our own save coming back through the
// watcher keeps the undo history) or it stems from our own edit.
void MainWindow::adoptDocument(const PlanResult& result) {
    if (!result.document || result.document == document_->snapshot()) return;
    if (document_->isLoaded() && *result.document == document_->json()) return;
    document_->reset(result.document);
}

namespace {

// The reader's message for `document`, "" when it reads. Reading without
// planning is quick, so the GUI thread may ask before it writes.
QString readerError(const Json& document) {
    try {
        readScenarioJson(document);
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

}  // namespace

// A document that does not read would leave a file nothing opens: the user
// decides; quietly (tests, scripts) it is refused.
bool MainWindow::confirmSavingUnreadable(const QString& path, bool quiet) {
    const QString error = readerError(document_->json());
    if (error.isEmpty()) return true;
    if (quiet) return false;
    const auto answer =
        QMessageBox::warning(this, tr("The scenario does not read"),
                             tr("Saved as it is, %1 would no longer read:\n\n%2\n\nSave it anyway?")
                                 .arg(QFileInfo(path).fileName(), error),
                             QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Save;
}

bool MainWindow::saveTo(const QString& path, bool quiet) {
    if (!confirmSavingUnreadable(path, quiet)) return false;
    QSaveFile file(path);
    const std::string text = scenarioJsonText(document_->json());
    bool ok = file.open(QIODevice::WriteOnly) &&
              file.write(text.data(), static_cast<qint64>(text.size())) ==
                  static_cast<qint64>(text.size()) &&
              file.commit();  // renames over the old file only when all was written
    if (!ok) {
        if (!quiet)
            QMessageBox::warning(this, tr("Save failed"),
                                 tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    document_->markSaved();
    if (QFileInfo(path).absoluteFilePath() != session_->path()) openScenario(path);
    return true;
}

bool MainWindow::save() {
    if (!document_->isLoaded()) return false;
    return session_->path().isEmpty() ? saveAs() : saveTo(session_->path());
}

bool MainWindow::saveAs() {
    if (!document_->isLoaded()) return false;
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario as"), session_->path(),
                                                tr("Scenarios (*.json);;All files (*)"));
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::maybeKeepEdits() {
    if (!document_->isModified()) return true;
    auto answer = QMessageBox::warning(
        this, tr("Unsaved edits"),
        tr("The scenario has edits that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) return save();
    document_->markSaved();  // discarded: the file is the truth again
    return true;
}

}  // namespace hsdp
