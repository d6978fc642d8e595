// SPDX-License-Identifier: Apache-2.0
#include "window/screenshots.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include "view_export/view_picture.h"
#include "view_registry/studio_views.h"
#include "window/main_window.h"

namespace hsdp {

namespace {

using Pictures = QList<QPair<QString, ViewPicture>>;

PictureCaption captionOf(const QString& title, const MainWindow& window) {
    const PlanResult& plan = window.session()->current();
    return {title, QStringLiteral("HSDP Studio, %1 of %2")
                       .arg(title, QString::fromStdString(plan.scenario->name))};
}

// Every registered view's screenshots of the window's plan and last run,
// each view made on its own and rendered at its pictures' sizes (the docks'
// sizes in a hidden window mean nothing). They share the window's
// selection, in registry order (a view's pictures may leave it moved).
void addViewPictures(MainWindow& window, bool svg, Pictures& pictures) {
    ViewContext context{window.selection(), window.planDiffTracker(), window.document(), nullptr};
    const PlanResult& plan = window.session()->current();
    for (const ViewRegistration& registration : studioViews()) {
        std::unique_ptr<StudioView> view = makeStudioView(registration, context);
        view->showPlan(plan);
        if (window.lastRun().isValid()) view->showRun(window.lastRun());
        if (window.job().isValid()) {
            JobData job = window.job();
            job.opened = false;  // the window's selection stays as it is
            view->showJob(job);
        }
        for (const ViewShot& shot : view->screenshots()) {
            const QString name = shot.file.isEmpty() ? screenshotFileName(registration) : shot.file;
            pictures << qMakePair(
                name, ViewPicture::drawn(*view, shot.size, shot.part, svg,
                                         captionOf(QFileInfo(name).completeBaseName(), window)));
        }
    }
}

}  // namespace

bool parseScreenshotFormats(const QString& text, ScreenshotFormats* formats, QString* error) {
    ScreenshotFormats parsed{false, false};
    for (const QString& word : text.split(QLatin1Char(','))) {
        const QString format = word.trimmed().toLower();
        if (format == QLatin1String("png")) {
            parsed.png = true;
        } else if (format == QLatin1String("svg")) {
            parsed.svg = true;
        } else {
            if (error)
                *error = QStringLiteral(
                             "--screenshot-format: '%1' is not png or svg (give png, "
                             "svg or png,svg)")
                             .arg(word);
            return false;
        }
    }
    *formats = parsed;
    return true;
}

QStringList writeScreenshots(MainWindow& window, const QString& dir, QString* error,
                             ScreenshotFormats formats) {
    QDir().mkpath(dir);
    Pictures pictures;
    addViewPictures(window, formats.svg, pictures);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();
    pictures << qMakePair(
        QStringLiteral("window.png"),
        ViewPicture::onScreen(window, formats.svg, captionOf(QStringLiteral("window"), window)));
    QStringList written;
    for (const auto& [name, picture] : pictures) {
        const QString png = QDir(dir).absoluteFilePath(name);
        QStringList paths;
        if (formats.png) paths << png;
        if (formats.svg) paths << png.chopped(4) + QStringLiteral(".svg");
        for (const QString& path : paths) {
            QString failed;
            if (picture.save(path, &failed))
                written << path;
            else if (error)
                *error = failed;
        }
    }
    return written;
}

}  // namespace hsdp
