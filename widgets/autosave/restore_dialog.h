// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

#include "autosave/restore_offer.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace hsdp {

enum class RestoreChoice { Restore, Discard, Later };

// The offer of one copy of unsaved edits: which file, when it was set aside
// and by which studio process, how the file stands on disk now, and every
// value restoring would change (JSON pointer, on disk → restored). Restore
// (Enter), Discard (deletes the copy), Later (Esc: keeps it for the next
// start or the next time its file is opened).
class RestoreDialog : public QDialog {
    Q_OBJECT
public:
    // `position` of `count`: several copies are offered one after the other.
    RestoreDialog(const RestoreOffer& offer, int position, int count, QWidget* parent = nullptr);

    RestoreChoice choice() const { return choice_; }
    QPushButton* button(RestoreChoice choice) const;
    QTreeWidget* changesTable() const { return changes_; }
    // Everything the dialog says above the table, as plain text.
    QString text() const;

private:
    void addDetails(const RestoreOffer& offer, int position, int count);
    void addChanges(const RestoreOffer& offer);
    void addButtons(bool untitled);

    RestoreChoice choice_ = RestoreChoice::Later;
    QList<QLabel*> labels_;
    QTreeWidget* changes_ = nullptr;
    QPushButton* restore_ = nullptr;
    QPushButton* discard_ = nullptr;
    QPushButton* later_ = nullptr;
};

}  // namespace hsdp
