// SPDX-License-Identifier: Apache-2.0
#include "window/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace hsdp {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    rebuildMenu();
}

QStringList RecentFiles::files() const {
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void RecentFiles::add(const QString& path) {
    QStringList list = files();
    QString absolute = QFileInfo(path).absoluteFilePath();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles) list.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), list);
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        QString label = QStringLiteral("&%1 %2").arg(i + 1).arg(QDir::toNativeSeparators(list[i]));
        QAction* action = menu_->addAction(label);
        QString path = list[i];
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    menu_->setEnabled(!list.isEmpty());
}

}  // namespace hsdp
