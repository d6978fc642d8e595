// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAction>
#include <QDialog>
#include <QList>

namespace hsdp {

// Help ▸ Keyboard shortcuts: one row per action (its name without '&' and
// '…', its keys), the table as wide as its longest name and keys so no
// name is cut, the dialog as wide as the table (within the screen).
QDialog* makeShortcutsDialog(const QList<QAction*>& actions, QWidget* parent);

}  // namespace hsdp
