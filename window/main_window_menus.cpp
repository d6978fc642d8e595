// SPDX-License-Identifier: Apache-2.0
// MainWindow's menus and actions, and the keyboard-shortcut list built from them.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "hsdp_version.h"
#include "mesh/mesh_widget.h"
#include "plan_tree/plan_tree_widget.h"
#include "window/documentation_browser.h"
#include "window/main_window.h"
#include "window/recent_files.h"
#include "window/shortcuts_dialog.h"

namespace hsdp {

QAction* MainWindow::addShortcutAction(QMenu* menu, const QString& text,
                                       const QKeySequence& shortcut) {
    QAction* action = menu->addAction(text);
    action->setShortcut(shortcut);
    shortcutActions_ << action;
    return action;
}

QList<QAction*> MainWindow::shortcutActions() const {
    return shortcutActions_;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addNewFromConfigAction(file);
    addNewFromCheckpointAction(file);
    connect(addShortcutAction(file, tr("&Open…"), QKeySequence::Open), &QAction::triggered, this,
            &MainWindow::openDialog);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openScenario);
    connect(addShortcutAction(file, tr("Re&load"), QKeySequence(Qt::Key_F5)), &QAction::triggered,
            this, [this] {
                if (maybeKeepEdits()) session_->reload();
            });
    connect(addShortcutAction(file, tr("&Save"), QKeySequence::Save), &QAction::triggered, this,
            &MainWindow::save);
    connect(
        addShortcutAction(file, tr("Save &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)),
        &QAction::triggered, this, &MainWindow::saveAs);
    addCompareActions(file);
    addOpenRunAction(file);
    addOpenJobAction(file);
    addReportAction(file);
    addExportViewActions(file);
    file->addSeparator();
    connect(addShortcutAction(file, tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q)),
            &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    buildEditMenu(edit);
    connect(addShortcutAction(edit, tr("&Filter the plan tree"), QKeySequence::Find),
            &QAction::triggered, this, [this] {
                dock("planTree")->show();
                view<PlanTreeWidget>()->filterEdit()->setFocus();
                view<PlanTreeWidget>()->filterEdit()->selectAll();
            });
    connect(addShortcutAction(edit, tr("&Clear selection"), QKeySequence(Qt::Key_Escape)),
            &QAction::triggered, selection_, &PlanSelection::clear);
    buildRunMenu();
    buildClusterMenu();
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::buildViewMenu() {
    viewMenu_ = menuBar()->addMenu(tr("&View"));
    MeshCanvas* mesh = view<MeshWidget>()->canvas();
    QAction* zoomIn =
        addShortcutAction(viewMenu_, tr("Zoom &in"), QKeySequence(Qt::CTRL | Qt::Key_Equal));
    zoomIn->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    connect(zoomIn, &QAction::triggered, mesh, &MeshCanvas::zoomIn);
    connect(addShortcutAction(viewMenu_, tr("Zoom &out"), QKeySequence(Qt::CTRL | Qt::Key_Minus)),
            &QAction::triggered, mesh, &MeshCanvas::zoomOut);
    connect(addShortcutAction(viewMenu_, tr("Zoom to &fit"), QKeySequence(Qt::CTRL | Qt::Key_0)),
            &QAction::triggered, mesh, &MeshCanvas::resetZoom);
    viewMenu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu_->addAction(dock->toggleViewAction());
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* documentation = help->addAction(tr("&Documentation"));
    documentation->setObjectName(QStringLiteral("documentationAction"));
    connect(documentation, &QAction::triggered, this, [this] {
        const QString index = documentationIndex(QCoreApplication::applicationDirPath());
        if (index.isEmpty()) {
            QMessageBox::information(
                this, tr("Documentation"),
                tr("The documentation is not installed beside this program (share/doc/"
                   "hsdp-studio/docs) nor in a source tree above it. It is the docs/ folder "
                   "of HSDP Studio's sources."));
            return;
        }
        auto* browser = new DocumentationBrowser(index, this);
        browser->setAttribute(Qt::WA_DeleteOnClose);
        browser->show();
    });
    connect(addShortcutAction(help, tr("&Keyboard shortcuts"), QKeySequence(Qt::Key_F1)),
            &QAction::triggered, this, &MainWindow::showShortcuts);
    connect(help->addAction(tr("&About HSDP Studio")), &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About HSDP Studio"),
            tr("<b>HSDP Studio %1</b><p>A visualizer and debugger for HSDP sharding plans: "
               "groups, batches, owners and TP transitions on N-D device meshes.</p>")
                .arg(QString::fromUtf8(hsdp::version())));
    });
}

void MainWindow::showShortcuts() {
    QDialog* dialog = makeShortcutsDialog(shortcutActions_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->exec();
}

}  // namespace hsdp
