// SPDX-License-Identifier: Apache-2.0
// MainWindow's Cluster menu: the cluster every plan is costed on (a preset,
// a cluster file, or none), kept in QSettings. The studio starts on the
// h100-dgx preset, so predictions are there from the first plan.
#include <QActionGroup>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>

#include "cluster/reader.h"
#include "window/main_window.h"

namespace hsdp {

namespace {

const QString kClusterKey = QStringLiteral("cluster");
const QString kDefaultCluster = QStringLiteral("h100-dgx");
const QString kNoCluster = QStringLiteral("none");

}  // namespace

void MainWindow::buildClusterMenu() {
    QMenu* menu = menuBar()->addMenu(tr("&Cluster"));
    clusterActions_ = new QActionGroup(this);
    auto add = [this, menu](const QString& text, const QString& choice) {
        QAction* action = menu->addAction(text);
        action->setCheckable(true);
        action->setData(choice);
        clusterActions_->addAction(action);
        connect(action, &QAction::triggered, this, [this, choice] { chooseCluster(choice); });
        return action;
    };
    add(tr("&None (no prediction)"), kNoCluster);
    menu->addSeparator();
    for (const std::string& name : clusterPresetNames()) {
        const QString preset = QString::fromStdString(name);
        QAction* action = add(preset, preset);
        action->setToolTip(QString::fromStdString(readClusterPreset(name).description));
    }
    menu->setToolTipsVisible(true);
    menu->addSeparator();
    connect(addShortcutAction(menu, tr("Cluster &File…"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K)),
            &QAction::triggered, this, &MainWindow::clusterFileDialog);
    const QString saved = QSettings().value(kClusterKey, kDefaultCluster).toString();
    if (!chooseCluster(saved, /*quiet=*/true)) chooseCluster(kDefaultCluster, /*quiet=*/true);
}

QString MainWindow::defaultCluster() {
    return kDefaultCluster;
}

bool MainWindow::chooseCluster(const QString& nameOrPath, bool quiet, bool remember) {
    std::shared_ptr<const Cluster> cluster;
    if (nameOrPath != kNoCluster) {
        try {
            cluster = std::make_shared<const Cluster>(resolveCluster(nameOrPath.toStdString()));
        } catch (const std::exception& error) {
            if (!quiet)
                QMessageBox::warning(this, tr("Cluster"),
                                     tr("Cannot use this cluster:\n%1").arg(error.what()));
            return false;
        }
    }
    clusterChoice_ = nameOrPath;
    if (remember) QSettings().setValue(kClusterKey, nameOrPath);
    for (QAction* action : clusterActions_->actions())
        action->setChecked(action->data().toString() == nameOrPath);
    session_->setCluster(std::move(cluster));
    return true;
}

void MainWindow::clusterFileDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Cluster file"), QString(), tr("hsdp-cluster/1 files (*.json);;All files (*)"));
    if (!path.isEmpty()) chooseCluster(path);
}

}  // namespace hsdp
