// SPDX-License-Identifier: Apache-2.0
#include "window/screenshots.h"

#include <QApplication>
#include <QDir>
#include <QImage>

#include "studio/studio_views.h"
#include "window/main_window.h"

namespace hsdp {

namespace {

// Every registered view's screenshots of the window's plan and last run,
// each view made on its own and rendered at its pictures' sizes (the docks'
// sizes in a hidden window mean nothing). They share the window's
// selection, in registry order (a view's pictures may leave it moved).
void addViewImages(MainWindow& window, QList<QPair<QString, QImage>>& images) {
    ViewContext context{window.selection(), window.planDiffTracker(), window.document(), nullptr};
    const PlanResult& plan = window.session()->current();
    for (const ViewRegistration& registration : studioViews()) {
        std::unique_ptr<StudioView> view = makeStudioView(registration, context);
        view->showPlan(plan);
        if (window.lastRun().isValid()) view->showRun(window.lastRun());
        for (const ViewShot& shot : view->screenshots())
            images << qMakePair(shot.file.isEmpty() ? screenshotFileName(registration) : shot.file,
                                view->picture(shot.size, shot.part));
    }
}

}  // namespace

QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error) {
    QDir().mkpath(dir);
    QList<QPair<QString, QImage>> images;
    addViewImages(window, images);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    images << qMakePair(QStringLiteral("window.png"), window.grab().toImage());
    QStringList written;
    for (const auto& [name, image] : images) {
        QString path = QDir(dir).absoluteFilePath(name);
        if (!image.save(path)) {
            if (error) *error = QStringLiteral("cannot write %1").arg(path);
            continue;
        }
        written << path;
    }
    return written;
}

}  // namespace hsdp
