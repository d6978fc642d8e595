// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace hsdp {

// The File ▸ Open Recent menu, kept in QSettings ("recentFiles"), newest first.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 8;

    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    void add(const QString& path);
    QStringList files() const;

signals:
    void openRequested(const QString& path);

private:
    void rebuildMenu();

    QMenu* menu_;
};

}  // namespace hsdp
