// SPDX-License-Identifier: Apache-2.0
// MainWindow's views: one of each registered in studioViews(), placed where
// its registration says, given every plan (onPlanReady) and every run.
#include <QCoreApplication>
#include <QDockWidget>
#include <QScrollArea>
#include <QVBoxLayout>

#include "editing/edit_widget.h"
#include "view_registry/studio_views.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

namespace hsdp {

namespace {

// A bottom dock's view in a scroll area: the bottom row's height is the
// user's choice, and a view squeezed below its layout's minimum drew its
// chart, caption and tables over each other. (A minimum set on the view
// itself would override its layout's and let that happen.)
QWidget* scrolled(QWidget* view, QWidget* parent) {
    auto* scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(view);
    scroll->setMinimumSize(240, 80);  // small enough that the window fits a 1366x768 screen
    return scroll;
}

}  // namespace

void MainWindow::buildViews() {
    auto* central = new QWidget(this);
    banner_ = new StaleBanner(central);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(banner_);
    setCentralWidget(central);
    ViewContext context{selection_, planDiffTracker_, document_, this};
    for (const ViewRegistration& registration : studioViews()) {
        StudioView* view = registration.make(context);
        views_.push_back(view);
        placeView(registration, view, central);
    }
    // The first dock of the left and the bottom row is in front of its tabs.
    for (const char* first : {"planTree", "diagnostics"})
        if (QDockWidget* front = dock(first)) front->raise();
    editing_ = view<EditWidget>();
    connect(this, &MainWindow::runReady, this, [this] {
        // After a run, its timeline is what the bottom row shows first. (Not
        // while hidden, e.g. screenshot mode: raising a never-shown tab there
        // left the dock a few pixels wide.)
        QDockWidget* trace = dock("trace");
        if (trace && isVisible()) trace->raise();
    });
}

void MainWindow::placeView(const ViewRegistration& registration, StudioView* view,
                           QWidget* central) {
    if (registration.place == ViewPlace::Central) {
        static_cast<QVBoxLayout*>(central->layout())->addWidget(view->widget(), 1);
        return;
    }
    const bool bottom =
        registration.place == ViewPlace::Bottom || registration.place == ViewPlace::BottomScrolled;
    const Qt::DockWidgetArea area = bottom ? Qt::BottomDockWidgetArea
                                    : registration.place == ViewPlace::Left
                                        ? Qt::LeftDockWidgetArea
                                        : Qt::RightDockWidgetArea;
    // The side's first dock, before this one joins it.
    QDockWidget* first = nullptr;
    for (QDockWidget* other : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (dockWidgetArea(other) == area && !first) first = other;
    auto* dock =
        new QDockWidget(QCoreApplication::translate("StudioViews", registration.title), this);
    dock->setObjectName(QLatin1String(registration.id) +
                        QStringLiteral("Dock"));  // saveState() keys on it
    dock->setWidget(registration.place == ViewPlace::BottomScrolled ? scrolled(view->widget(), this)
                                                                    : view->widget());
    addDockWidget(area, dock);
    if (!first) return;
    if (area == Qt::RightDockWidgetArea) {
        // Split below the right column's last dock.
        QDockWidget* last = first;
        for (QDockWidget* other : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
            if (other != dock && dockWidgetArea(other) == area) last = other;
        splitDockWidget(last, dock, Qt::Vertical);
    } else {
        tabifyDockWidget(first, dock);
    }
}

QDockWidget* MainWindow::dock(const char* viewId) const {
    return findChild<QDockWidget*>(QLatin1String(viewId) + QStringLiteral("Dock"),
                                   Qt::FindDirectChildrenOnly);
}

// Every view at once, so that none shows a run the others dropped. The
// corrected run a reference run is compared with stays while runs of its
// plan follow it.
void MainWindow::showRun(const RunData& run) {
    completePendingPlan();
    if (!run.isValid())
        lastCorrectedRun_ = {};
    else if (run.run->mode != RunMode::Reference)
        lastCorrectedRun_ = run;
    else if (lastCorrectedRun_.isValid() && lastCorrectedRun_.plan.plan != run.plan.plan)
        lastCorrectedRun_ = {};
    for (StudioView* view : views_) view->showRun(run);
}

}  // namespace hsdp
