// SPDX-License-Identifier: Apache-2.0
// The view registry is the one place the studio learns of a view: every
// registered view is in the window once (the mesh in the centre, the others
// in docks named after their ids), takes every plan and run the window
// shows, draws its pictures at the size asked for, and --screenshot and the
// report reach it through the registry alone.
#include <QDockWidget>
#include <QPainter>
#include <QPicture>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "studio_test_util.h"
#include "view_registry/studio_views.h"
#include "window/main_window.h"
#include "window/screenshots.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::predictionDone;
using hsdp::testing::sample;

namespace {

// How many pixels of `image` are not the colour of its top-left corner.
int drawnPixels(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    const QRgb background = rgb.pixel(0, 0);
    int drawn = 0;
    for (int y = 0; y < rgb.height(); y += 2)
        for (int x = 0; x < rgb.width(); x += 2) drawn += rgb.pixel(x, y) != background;
    return drawn;
}

RunData runAndWait(MainWindow& window) {
    QSignalSpy ready(&window, &MainWindow::runReady);
    window.startRun(RunRequest{});
    if (!ready.wait(60000)) return {};
    return ready.takeFirst().at(0).value<RunData>();
}

}  // namespace

class TestViewRegistry : public QObject {
    Q_OBJECT
private slots:
    void idsAreUniqueAndOneViewIsCentral();
    void theWindowHoldsEveryRegisteredViewOnce();
    void everyViewTakesThePlanAndTheRunTheWindowShows();
    void everyPictureIsDrawnAtTheSizeAsked();
    void screenshotsAreTheRegisteredViewsShots();
};

void TestViewRegistry::idsAreUniqueAndOneViewIsCentral() {
    QSet<QString> ids, files;
    int central = 0;
    for (const ViewRegistration& view : studioViews()) {
        const QString id = QLatin1String(view.id);
        QVERIFY2(!id.isEmpty() && !ids.contains(id), view.id);
        ids << id;
        QVERIFY2(!files.contains(screenshotFileName(view)), view.id);
        files << screenshotFileName(view);
        QVERIFY2(view.title && *view.title, view.id);
        QCOMPARE(findStudioView(id), &view);
        central += view.place == ViewPlace::Central;
    }
    QCOMPARE(central, 1);
    QVERIFY(!findStudioView(QStringLiteral("noSuchView")));
    QCOMPARE(screenshotFileName(*findStudioView(QStringLiteral("ownerBalance"))),
             QStringLiteral("owner-balance.png"));
}

void TestViewRegistry::theWindowHoldsEveryRegisteredViewOnce() {
    MainWindow window;
    QCOMPARE(window.views().size(), studioViews().size());
    for (size_t i = 0; i < studioViews().size(); ++i) {
        const ViewRegistration& registration = studioViews()[i];
        StudioView* view = window.views()[i];
        QVERIFY(view && view->widget());
        auto* dock =
            window.findChild<QDockWidget*>(QLatin1String(registration.id) + QStringLiteral("Dock"));
        if (registration.place == ViewPlace::Central) {
            QVERIFY(!dock);
            QVERIFY(window.centralWidget()->isAncestorOf(view->widget()));
            continue;
        }
        QVERIFY2(dock, registration.id);
        QVERIFY2(dock->isAncestorOf(view->widget()), registration.id);
        QCOMPARE(dock->windowTitle(), QString::fromUtf8(registration.title));
    }
    // One dock per docked view, no other.
    QCOMPARE(window.findChildren<QDockWidget*>().size(), qsizetype(studioViews().size() - 1));
}

// A view that records what the window gives it: the window fans the plan
// and the run out to the registered views, so each one's own state moves.
void TestViewRegistry::everyViewTakesThePlanAndTheRunTheWindowShows() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample(QStringLiteral("teaching_2x2.json"))));
    // The predicted views draw once the plan's prediction is in, run or not:
    // sampled before it came, they would seem to draw only after the run.
    QVERIFY(predictionDone(window));
    // Before a run, the run views have nothing to draw; after it, they do.
    QSet<QString> before;
    for (size_t i = 0; i < studioViews().size(); ++i)
        if (!window.views()[i]->screenshots().isEmpty())
            before << QLatin1String(studioViews()[i].id);
    QVERIFY(before.contains(QStringLiteral("mesh")));
    QVERIFY(!before.contains(QStringLiteral("trace")));
    const RunData run = runAndWait(window);
    QVERIFY(run.isValid());
    QSet<QString> after;
    for (size_t i = 0; i < studioViews().size(); ++i)
        if (!window.views()[i]->screenshots().isEmpty())
            after << QLatin1String(studioViews()[i].id);
    for (const char* runView : {"verification", "steps", "trace", "bufferLayout", "traffic"})
        QVERIFY2(after.contains(QLatin1String(runView)) && !before.contains(QLatin1String(runView)),
                 runView);
    QVERIFY(window.lastCorrectedRun().isValid());
    // Another file: every view forgets the run.
    QVERIFY(openAndWait(window, sample(QStringLiteral("diagnostics_tour.json"))));
    QVERIFY(predictionDone(window));
    for (size_t i = 0; i < studioViews().size(); ++i)
        if (!before.contains(QLatin1String(studioViews()[i].id)))
            QVERIFY2(window.views()[i]->screenshots().isEmpty(), studioViews()[i].id);
    QVERIFY(!window.lastCorrectedRun().isValid());
}

// Made on its own as the report makes it, each view draws its pictures at
// the size asked, as an image and as drawing commands, and draws something.
void TestViewRegistry::everyPictureIsDrawnAtTheSizeAsked() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample(QStringLiteral("teaching_2x2.json"))));
    const RunData run = runAndWait(window);
    QVERIFY(run.isValid());
    for (const ViewRegistration& registration : studioViews()) {
        if (registration.needsWindow) continue;
        PlanSelection selection;
        std::unique_ptr<StudioView> view = makeStudioView(registration, ViewContext{&selection});
        QVERIFY(!view->widget()->parent());
        view->showPlan(window.session()->current());
        view->showRun(run);
        for (const ViewShot& shot : view->screenshots()) {
            const QImage image = view->picture(shot.size, shot.part);
            QCOMPARE(image.size(), shot.size);
            QVERIFY2(drawnPixels(image) > 100, registration.id);
            QPicture recording;
            view->paintPicture(recording, shot.size, shot.part);
            QVERIFY2(!recording.boundingRect().isEmpty(), registration.id);
        }
    }
}

void TestViewRegistry::screenshotsAreTheRegisteredViewsShots() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample(QStringLiteral("teaching_2x2.json"))));
    QVERIFY(runAndWait(window).isValid());
    QSet<QString> expected{QStringLiteral("window.png")};
    for (size_t i = 0; i < studioViews().size(); ++i)
        for (const ViewShot& shot : window.views()[i]->screenshots())
            expected << (shot.file.isEmpty() ? screenshotFileName(studioViews()[i]) : shot.file);
    QVERIFY(expected.contains(QStringLiteral("step-1.png")));
    QTemporaryDir dir;
    QString error;
    const QStringList written = writeScreenshots(window, dir.path(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QSet<QString> names;
    for (const QString& path : written) {
        names << QFileInfo(path).fileName();
        QVERIFY2(drawnPixels(QImage(path)) > 100, qPrintable(path));
    }
    QCOMPARE(names, expected);
}

QTEST_MAIN(TestViewRegistry)
#include "tst_view_registry.moc"
