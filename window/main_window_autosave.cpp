// SPDX-License-Identifier: Apache-2.0
// MainWindow's side of autosave: unsaved edits set aside while they last,
// and the copies a crashed or killed studio left offered back.
#include <QScopedValueRollback>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>

#include "autosave/autosave_store.h"
#include "autosave/autosaver.h"
#include "autosave/restore_dialog.h"
#include "autosave/restore_offer.h"
#include "derived/plan/scenario_document.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

void MainWindow::enableAutosave(const QString& dir) {
    if (autosaver_) return;
    autosaver_ = new Autosaver(
        document_, dir, [this] { return session_->path(); }, this);
    connect(autosaver_, &Autosaver::failed, this, [this](const QString& message) {
        banner_->showNotice(tr("Unsaved edits could not be set aside (%1): they are only in "
                               "this window until you save them.")
                                .arg(message));
    });
    scheduleRestoreOffer({});
}

void MainWindow::scheduleRestoreOffer(const QString& file) {
    if (!autosaver_ || offeringRestores_) return;
    if (pendingRestoreOffer_) {
        if (*pendingRestoreOffer_ != file) pendingRestoreOffer_ = QString();  // then all
        return;
    }
    pendingRestoreOffer_ = file;
    QTimer::singleShot(0, this, [this] {
        const QString wanted = pendingRestoreOffer_.value_or(QString());
        pendingRestoreOffer_.reset();
        offerRestores(wanted);
    });
}

// One dialog per copy, newest first, the open file's first. The window
// holds one document: after a restore the other copies wait for later.
void MainWindow::offerRestores(const QString& file) {
    QScopedValueRollback<bool> offering(offeringRestores_, true);
    std::vector<ClaimedCopy> claims = autosaver_->store().claimOrphans(file);
    std::stable_partition(claims.begin(), claims.end(), [this](const ClaimedCopy& claim) {
        return !claim.copy.file.isEmpty() && claim.copy.file == session_->path();
    });
    for (size_t i = 0; i < claims.size(); ++i) {
        const RestoreOffer offer = makeRestoreOffer(claims[i].copy, claims[i].path);
        RestoreDialog dialog(offer, int(i + 1), int(claims.size()), this);
        dialog.exec();
        if (dialog.choice() == RestoreChoice::Discard) AutosaveStore::discard(claims[i]);
        if (dialog.choice() != RestoreChoice::Restore || !restore(offer)) continue;
        autosaver_->flush();                // the edits are in this studio's copy now,
        AutosaveStore::discard(claims[i]);  // so the one they came from may go
        return;
    }
}

// The edits go back as one undo step over the file as it is on disk (or the
// copy's base when there is no readable file): Undo shows what was on disk,
// Redo the edits. Should that not give exactly the edited document (a key
// the edits moved), the edited document replaces it whole.
bool MainWindow::restore(const RestoreOffer& offer) {
    if (!maybeKeepEdits()) return false;
    auto start = std::make_shared<const Json>(offer.start);
    if (offer.disk == DiskState::Untitled) {
        openGeneratedScenario(start);
    } else {
        openScenario(offer.copy.file);
        document_->reset(start);
    }
    applyRestoredChanges(offer);
    const bool exact = document_->json() == offer.copy.document;
    if (!exact) document_->reset(std::make_shared<const Json>(offer.copy.document));
    // Unsaved until the user saves it where the file on disk does not hold it.
    if (!exact || offer.disk == DiskState::Missing || offer.disk == DiskState::Unreadable)
        document_->markUnsaved();
    const QString edited = offer.changes.empty() ? QString() : offer.changes.back().pointer;
    session_->planDocument(document_->snapshot(), edited);  // replaces the file's plan
    autosaver_->saveNow();
    return true;
}

void MainWindow::applyRestoredChanges(const RestoreOffer& offer) {
    if (offer.changes.empty()) return;
    const QString label = tr("Restore unsaved edits");
    QUndoStack* undo = document_->undoStack();
    document_->closeEditStep();
    undo->beginMacro(label);
    for (const JsonChange& change : offer.changes)
        document_->setValue(change.pointer, change.after, label);
    undo->endMacro();
    document_->closeEditStep();
}

}  // namespace hsdp
