// SPDX-License-Identifier: Apache-2.0
// MainWindow's pictures out: File ▸ Export View… and Copy View as Image, and
// the same two on every view's right click, installed here once for all
// registered views. A view's picture is its drawing as it is on screen
// (without its controls), or, at a chosen size or of a chosen part, drawn
// as --screenshot draws it. The folder last written to (a picture or a
// report) is kept in QSettings: the next export proposes it, in this studio
// or the next; the first goes to the user's documents folder.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "view_export/active_view_tracker.h"
#include "view_export/export_view_dialog.h"
#include "view_export/view_picture.h"
#include "view_registry/studio_views.h"
#include "window/main_window.h"

namespace hsdp {

namespace {

const QString kExportFolderKey = QStringLiteral("export/viewFolder");

}  // namespace

void MainWindow::addExportViewActions(QMenu* file) {
    std::vector<QWidget*> widgets;
    for (StudioView* view : views_) widgets.push_back(view->widget());
    activeView_ = new ActiveViewTracker(widgets, this);
    // A dock brought to the front by its tab is the view the user turned to.
    connect(this, &QMainWindow::tabifiedDockWidgetActivated, activeView_,
            [this](QDockWidget* dock) { activeView_->note(dock); });
    for (size_t i = 0; i < views_.size(); ++i) {
        // Children with menus of their own (a text field's) keep them; a right
        // click anywhere else in the view reaches it, except in children that
        // stop mouse events on their way up (QCustomPlot's charts): they
        // offer the menu themselves.
        QWidget* view = views_[i]->widget();
        QList<QWidget*> offering{view};
        for (QWidget* child : view->findChildren<QWidget*>())
            if (child->testAttribute(Qt::WA_NoMousePropagation) &&
                child->contextMenuPolicy() == Qt::DefaultContextMenu)
                offering << child;
        for (QWidget* widget : offering) {
            widget->setContextMenuPolicy(Qt::CustomContextMenu);
            connect(widget, &QWidget::customContextMenuRequested, this,
                    [this, i, widget](const QPoint& at) {
                        showViewMenu(QLatin1String(studioViews()[i].id), widget->mapToGlobal(at));
                    });
        }
    }
    connect(addShortcutAction(file, tr("Export &View…"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)),
            &QAction::triggered, this, [this] { openExportViewDialog(); });
    connect(addShortcutAction(file, tr("Cop&y View as Image"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)),
            &QAction::triggered, this, [this] { copyView(activeViewId()); });
}

QMenu* MainWindow::showViewMenu(const QString& viewId, const QPoint& at) {
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("viewMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    connect(menu->addAction(tr("Export View…")), &QAction::triggered, this,
            [this, viewId] { openExportViewDialog(viewId); });
    connect(menu->addAction(tr("Copy View as Image")), &QAction::triggered, this,
            [this, viewId] { copyView(viewId); });
    menu->popup(at);
    return menu;
}

QString MainWindow::activeViewId() const {
    const int index = activeView_ ? activeView_->current() : -1;
    return QLatin1String(studioViews()[index >= 0 ? size_t(index) : 0].id);
}

int MainWindow::viewIndex(const QString& viewId) const {
    for (size_t i = 0; i < studioViews().size(); ++i)
        if (viewId == QLatin1String(studioViews()[i].id)) return int(i);
    return -1;
}

// Named after the scenario and the view, in exportFolder().
QString MainWindow::suggestedViewPath(const ViewRegistration& registration) const {
    return suggestedExportPath(QStringLiteral("-") + screenshotFileName(registration));
}

// The folder the last picture or report went to while it still exists, else
// the user's documents folder (else home): a user location, not the clone.
QString MainWindow::exportFolder() {
    const QString folder = QSettings().value(kExportFolderKey).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) return folder;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void MainWindow::rememberExportFolder(const QString& writtenPath) {
    QSettings().setValue(kExportFolderKey, QFileInfo(writtenPath).absolutePath());
}

ExportViewDialog* MainWindow::openExportViewDialog(const QString& viewId) {
    const QString current = viewId.isEmpty() ? activeViewId() : viewId;
    std::vector<ExportViewDialog::View> choices;
    for (size_t i = 0; i < views_.size(); ++i) {
        const ViewRegistration& registration = studioViews()[i];
        choices.push_back({QLatin1String(registration.id),
                           QCoreApplication::translate("StudioViews", registration.title),
                           views_[i]->shownPictureSize(), views_[i]->screenshots(),
                           suggestedViewPath(registration)});
    }
    auto* dialog = new ExportViewDialog(
        std::move(choices), viewIndex(current),
        [this](const ViewExportRequest& request, QString* error) {
            return exportView(request, error);
        },
        this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

// Brings a view behind another dock's tab (or closed) to the front:
// its size on screen means nothing until then, and what is exported is
// what the user then sees.
void MainWindow::revealView(int index) {
    QWidget* widget = views_[size_t(index)]->widget();
    // A dock behind another's tab counts as visible; nothing of it is on screen.
    if (!isVisible() || (widget->isVisible() && !widget->visibleRegion().isEmpty())) return;
    if (QDockWidget* viewDock = dock(studioViews()[size_t(index)].id)) {
        viewDock->show();
        viewDock->raise();
        QApplication::processEvents();
    }
}

ViewPicture MainWindow::renderView(int index, const QString& part, const QSize& size,
                                   bool withSvg) {
    revealView(index);
    StudioView& view = *views_[size_t(index)];
    const bool asShown = part.isEmpty() && !size.isValid();
    const QSize drawnSize = size.isValid() ? size
                            : asShown      ? view.shownPictureSize()
                                           : view.widget()->size();
    const QString title =
        QCoreApplication::translate("StudioViews", studioViews()[size_t(index)].title);
    const PlanResult& plan = session_->current();
    PictureCaption caption;
    caption.title = title;
    caption.description =
        tr("HSDP Studio, %1 view%2 of %3, %4 × %5 px")
            .arg(title, part.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(part),
                 plan.isValid() ? QString::fromStdString(plan.scenario->name) : tr("no scenario"))
            .arg(drawnSize.width())
            .arg(drawnSize.height());
    // As on screen: the view's own drawing of what it shows, not a grab of
    // the widget with its combo boxes and scroll bars.
    view.setDrawingAsShown(asShown);
    ViewPicture picture = ViewPicture::drawn(view, drawnSize, part, withSvg, caption);
    view.setDrawingAsShown(false);
    return picture;
}

bool MainWindow::exportView(const ViewExportRequest& request, QString* error) {
    const int index = viewIndex(request.view);
    const std::optional<PictureFormat> format = pictureFormatOf(request.path);
    QString problem;
    if (index < 0)
        problem = tr("No view is called '%1'.").arg(request.view);
    else if (!format)
        problem = tr("Cannot write %1: the name must end in .png or .svg.").arg(request.path);
    else if (request.size.isValid() && (request.size.width() > ExportViewDialog::kMaxSide ||
                                        request.size.height() > ExportViewDialog::kMaxSide))
        problem = tr("%1 × %2 px is larger than a picture may be (%3 px a side).")
                      .arg(request.size.width())
                      .arg(request.size.height())
                      .arg(ExportViewDialog::kMaxSide);
    if (problem.isEmpty()) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const ViewPicture picture =
            renderView(index, request.part, request.size, *format == PictureFormat::Svg);
        QApplication::restoreOverrideCursor();
        if (picture.save(request.path, &problem)) {
            rememberExportFolder(request.path);
            statusBar()->showMessage(tr("%1 written (%2 × %3 px)")
                                         .arg(request.path)
                                         .arg(picture.image.width())
                                         .arg(picture.image.height()),
                                     10000);
            return true;
        }
    }
    if (error) *error = problem;
    return false;
}

bool MainWindow::copyView(const QString& viewId) {
    const int index = viewIndex(viewId);
    if (index < 0) return false;
    const ViewPicture picture = renderView(index, {}, {}, true);
    QGuiApplication::clipboard()->setMimeData(picture.mimeData());
    statusBar()->showMessage(
        tr("%1 copied as an image (%2 × %3 px) and as SVG")
            .arg(QCoreApplication::translate("StudioViews", studioViews()[size_t(index)].title))
            .arg(picture.image.width())
            .arg(picture.image.height()),
        10000);
    return true;
}

}  // namespace hsdp
