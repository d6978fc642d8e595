// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QString>
#include <vector>

#include "autosave/autosave_store.h"
#include "autosave/json_changes.h"

namespace hsdp {

// How the copy's file stands on disk now.
enum class DiskState {
    Unchanged,   // as the edits found it
    Changed,     // written since the edits began (by another program or studio)
    Missing,     // gone
    Unreadable,  // there, but not JSON
    Untitled,    // the copy is of a scenario never saved (New from Model Config…)
};

// What restoring a copy would do, for the offer to show and the window to
// carry out: the document it starts from (the file as it is on disk now, or
// the copy's own base when the file is gone, unreadable or never was) and the
// values it changes there to give back exactly the edited scenario.
struct RestoreOffer {
    AutosaveCopy copy;
    QString copyPath;
    DiskState disk = DiskState::Unchanged;
    QString diskProblem;     // Missing, Unreadable: why
    QDateTime diskModified;  // the file's last write (Unchanged, Changed)
    Json start;
    std::vector<JsonChange> changes;  // start -> copy.document
};

RestoreOffer makeRestoreOffer(const AutosaveCopy& copy, const QString& copyPath);

}  // namespace hsdp
