// SPDX-License-Identifier: Apache-2.0
#include "window/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace hsdp {

namespace {

QTableWidget* shortcutTable(const QList<QAction*>& actions, QWidget* parent) {
    auto* table = new QTableWidget(static_cast<int>(actions.size()), 2, parent);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Shortcut")});
    for (int i = 0; i < actions.size(); ++i) {
        QAction* action = actions[i];
        table->setItem(i, 0,
                       new QTableWidgetItem(
                           action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"))));
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        table->setItem(i, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return table;
}

// The width that shows both columns whole beside a vertical scroll bar:
// a fixed 420 px left "New from Model Config" cut once the bar took its room.
int tableWidth(const QTableWidget* table) {
    return table->horizontalHeader()->length() + table->verticalScrollBar()->sizeHint().width() +
           2 * table->frameWidth() + 4;
}

}  // namespace

QDialog* makeShortcutsDialog(const QList<QAction*>& actions, QWidget* parent) {
    auto* dialog = new QDialog(parent);
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    QTableWidget* table = shortcutTable(actions, dialog);
    table->setMinimumWidth(tableWidth(table));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(dialog->sizeHint().width(), 420);
    return dialog;
}

}  // namespace hsdp
