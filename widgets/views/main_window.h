#pragma once

#include <QKeySequence>
#include <QMainWindow>

#include "models/plan_selection.h"
#include "session.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;

namespace hsdp {

class DiagnosticsWidget;
class MeshWidget;
class OwnerBalanceView;
class PlanTreeWidget;
class RecentFiles;
class StaleBanner;
class TensorLayoutView;

// The studio window: the session, the one selection, and the views around
// them. The mesh view is the central picture; every other view is a dock
// (add one with addViewDock). Layout, geometry and recent files persist in
// QSettings. A scenario that stops reading never clears the views: the
// banner shows the reader's message over the last good plan, marked stale.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openScenario(const QString& path);

    Session* session() const { return session_; }
    PlanSelection* selection() const { return selection_; }
    MeshWidget* meshWidget() const { return mesh_; }
    PlanTreeWidget* planTree() const { return tree_; }
    DiagnosticsWidget* diagnostics() const { return diagnostics_; }
    OwnerBalanceView* ownerBalance() const { return balance_; }
    TensorLayoutView* tensorLayout() const { return tensorLayout_; }
    StaleBanner* banner() const { return banner_; }
    QString statusText() const;
    // Every action with a shortcut, in menu order (Help ▸ Keyboard shortcuts).
    QList<QAction*> shortcutActions() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildCentral();
    QDockWidget* addViewDock(QWidget* view, const QString& title, const QString& objectName,
                             Qt::DockWidgetArea area);
    void buildMenus();
    void buildViewMenu();
    void buildHelpMenu();
    QAction* addShortcutAction(QMenu* menu, const QString& text, const QKeySequence& shortcut);
    void openDialog();
    void onPlanReady(const PlanResult& result);
    void onReadFailed(const QString& message);
    void reconcileSelection(const PlanResult& result, bool sameFile);
    void updateStatus();
    void updateTitle();
    void showShortcuts();
    void restoreSettings();

    Session* session_;
    PlanSelection* selection_;
    StaleBanner* banner_ = nullptr;
    MeshWidget* mesh_ = nullptr;
    PlanTreeWidget* tree_ = nullptr;
    DiagnosticsWidget* diagnostics_ = nullptr;
    OwnerBalanceView* balance_ = nullptr;
    TensorLayoutView* tensorLayout_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QLabel* status_ = nullptr;
    QList<QAction*> shortcutActions_;
    QString shownPath_;  // the file whose plan is on screen
};

}  // namespace hsdp
