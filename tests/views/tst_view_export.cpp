// SPDX-License-Identifier: Apache-2.0
// Pictures out: every registered view of the window is written as a PNG of
// the size asked for and as an SVG that is a real vector drawing of the same
// picture (text as text, no picture-sized bitmap, drawn alike by Qt and by
// rsvg-convert); as on screen, a view is its own drawing of what it shows,
// without its combo boxes and scroll bars, its legend whole; the clipboard
// gets that picture; the Export View dialog opens on the view last worked
// in, in the folder last written to, its labels without a stray '&', and
// its choices reach the file; a path that cannot be written is refused with
// its name; a right click on any view offers both; --screenshot writes SVGs
// with --screenshot-format.
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTreeView>
#include <QXmlStreamReader>
#include <QtTest>

#include "cli_process.h"
#include "mesh/mesh_widget.h"
#include "studio_test_util.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "view_export/export_view_dialog.h"
#include "view_export/svg_paint_device.h"
#include "view_registry/studio_views.h"
#include "window/main_window.h"
#include "window/screenshots.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::predictionDone;
using hsdp::testing::sample;

namespace {

// The position of view `id` in the registry (and in MainWindow::views()).
size_t viewIndexOf(const char* id) {
    const auto& views = studioViews();
    for (size_t i = 0; i < views.size(); ++i)
        if (QLatin1String(views[i].id) == QLatin1String(id)) return i;
    qFatal("no view %s", id);
    return 0;
}

RunData runAndWait(MainWindow& window) {
    QSignalSpy ready(&window, &MainWindow::runReady);
    window.startRun(RunRequest{});
    if (!ready.wait(60000)) return {};
    return ready.takeFirst().at(0).value<RunData>();
}

// What an SVG document holds: its elements by name, the pixels of the
// bitmaps it embeds (a style's stretched frame counts its few own pixels,
// a grabbed view all of its) and its description.
struct SvgContents {
    QMap<QString, int> elements;
    qint64 bitmapPixels = 0;
    qint64 largestBitmap = 0;
    QString description;
};

SvgContents svgContents(const QByteArray& svg) {
    SvgContents contents;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const QString name = xml.name().toString();
        ++contents.elements[name];
        if (name == QLatin1String("image")) {
            const QString href = xml.attributes().value(QLatin1String("xlink:href")).toString();
            const QImage bitmap = QImage::fromData(
                QByteArray::fromBase64(href.section(QLatin1Char(','), 1).toLatin1()));
            const qint64 pixels = qint64(bitmap.width()) * bitmap.height();
            contents.bitmapPixels += pixels;
            contents.largestBitmap = std::max(contents.largestBitmap, pixels);
        }
        if (name == QLatin1String("desc")) contents.description = xml.readElementText();
    }
    return xml.hasError() ? SvgContents{} : contents;
}

// `svg` drawn by rsvg-convert (librsvg: GNOME's renderer, and that of many
// converters) on white; Qt's own (SVG Tiny 1.2) knows no clip paths.
QImage rsvgDrawn(const QByteArray& svg, const QString& dir) {
    const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
    if (rsvg.isEmpty()) qFatal("no rsvg-convert: run scripts/bootstrap (it installs librsvg2-bin)");
    const QString in = QDir(dir).filePath(QStringLiteral("drawn.svg"));
    const QString out = QDir(dir).filePath(QStringLiteral("drawn.png"));
    QFile file(in);
    if (!file.open(QIODevice::WriteOnly) || file.write(svg) != svg.size()) return {};
    file.close();
    QFile::remove(out);
    const testing::CliOutcome outcome = testing::runProgram(
        rsvg, {QStringLiteral("--background-color=white"), in, QStringLiteral("-o"), out});
    return outcome.exitCode == 0 ? QImage(out) : QImage();
}

// How far apart two pictures of one size look, in grey levels (0-255)
// over 8x8-pixel cells: on average and in the worst cell. Text drawn by
// two renderers differs a little everywhere; a label, a chart or a table
// missing or out of place differs a lot somewhere.
struct Difference {
    double mean = 0;
    int worst = 0;
};

Difference cellDifference(const QImage& a, const QImage& b) {
    const QSize cells(std::max(1, a.width() / 8), std::max(1, a.height() / 8));
    const auto shrunk = [&](const QImage& image) {
        return image.convertToFormat(QImage::Format_Grayscale8)
            .scaled(cells, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    };
    const QImage smallA = shrunk(a);
    const QImage smallB = shrunk(b);
    Difference difference;
    for (int y = 0; y < cells.height(); ++y)
        for (int x = 0; x < cells.width(); ++x) {
            const int apart = std::abs(qGray(smallA.pixel(x, y)) - qGray(smallB.pixel(x, y)));
            difference.mean += apart;
            difference.worst = std::max(difference.worst, apart);
        }
    difference.mean /= cells.width() * cells.height();
    return difference;
}

// How many pixels (every other row and column) differ from the top-left one.
int drawnPixels(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int drawn = 0;
    for (int y = 0; y < rgb.height(); y += 2)
        for (int x = 0; x < rgb.width(); x += 2) drawn += rgb.pixel(x, y) != rgb.pixel(0, 0);
    return drawn;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Checks that `svg` is a vector drawing of `png`: Qt reads it and its
// viewBox is the picture's size, it holds shapes and text and no bitmap of
// the picture, and drawn by rsvg-convert it is the PNG's size and looks
// like it.
void checkSvgOfPicture(const QByteArray& svg, const QImage& png, const char* what) {
    QSvgRenderer renderer(svg);
    QVERIFY2(renderer.isValid(), what);
    QCOMPARE(renderer.viewBoxF(), QRectF(QPointF(0, 0), QSizeF(png.size())));
    const SvgContents contents = svgContents(svg);
    const int shapes = contents.elements.value(QStringLiteral("path")) +
                       contents.elements.value(QStringLiteral("rect"));
    QVERIFY2(shapes >= 1, what);
    QVERIFY2(contents.elements.value(QStringLiteral("text")) >= 1, what);
    // Fusion draws frames and header sections from small cached bitmaps;
    // a view drawn as one would be all of the picture's pixels.
    const qint64 picturePixels = qint64(png.width()) * png.height();
    QVERIFY2(contents.largestBitmap < picturePixels / 10, what);
    QVERIFY2(contents.bitmapPixels < picturePixels / 3, what);
    QTemporaryDir dir;
    const QImage drawn = rsvgDrawn(svg, dir.path());
    QCOMPARE(drawn.size(), png.size());
    const Difference difference = cellDifference(drawn, png);
    QVERIFY2(difference.mean < 3 && difference.worst < 48,
             qPrintable(QStringLiteral("%1: rsvg-convert's drawing is %2 apart on average, %3 "
                                       "in the worst 8x8 cell")
                            .arg(QLatin1String(what))
                            .arg(difference.mean)
                            .arg(difference.worst)));
}

}  // namespace

class TestViewExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theSvgDeviceKeepsClipsPiecesDashesAndHatches();
    void everyViewIsWrittenAsPngAndSvgAtTheSizeAsked();
    void aViewAsOnScreenIsItsPixels();
    void asOnScreenIsTheDrawingWithoutControls();
    void aPartIsDrawnAndTheViewPutBack();
    void theClipboardGetsTheViewAtItsSize();
    void aRightClickOnAnyViewOffersExportAndCopy();
    void theDialogOpensOnTheViewLastWorkedIn();
    void theDialogKeepsTheFolderLastWrittenTo();
    void theDialogsLabelsShowNoAmpersand();
    void theDialogsChoicesReachTheFile();
    void aPathThatCannotBeWrittenIsRefusedWithItsName();
    void screenshotWritesSvgs();

private:
    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
};

namespace {

// Where an export goes before any: the user's documents folder, else home.
QString userFolder() {
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? QFileInfo(documents).absoluteFilePath()
                                        : QDir::homePath();
}

}  // namespace

// One window with a plan, its prediction and a run, so that every view draws.
void TestViewExport::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("export"));  // no folder kept from an earlier run
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(openAndWait(*window_, sample(QStringLiteral("teaching_2x2.json"))));
    QVERIFY(predictionDone(*window_));
    QVERIFY(runAndWait(*window_).isValid());
}

namespace {

// What widgets paint and Qt's own SVG generator got wrong: a fill cut by a
// clip, a piece of a pixmap, a cosmetic dotted line, a hatch, clipped text.
void paintScene(QPainter& painter) {
    painter.fillRect(0, 0, 200, 100, Qt::white);
    painter.save();
    painter.setClipRect(0, 0, 50, 50);
    painter.fillRect(0, 0, 100, 100, Qt::red);
    painter.restore();
    QPixmap halves(20, 10);
    halves.fill(Qt::blue);
    QPainter(&halves).fillRect(10, 0, 10, 10, Qt::green);
    painter.drawPixmap(QRectF(100, 0, 40, 40), halves, QRectF(10, 0, 10, 10));
    painter.setPen(QPen(Qt::black, 0, Qt::DotLine));
    painter.drawLine(0, 80, 199, 80);
    painter.fillRect(150, 0, 50, 50, QBrush(Qt::black, Qt::BDiagPattern));
    painter.setPen(Qt::black);
    painter.setClipRect(0, 55, 60, 20);
    painter.drawText(QPointF(5, 70), QStringLiteral("Clipped at sixty pixels"));
}

// The share of dark pixels of `image` in `area`.
double ink(const QImage& image, const QRect& area) {
    int dark = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) dark += qGray(image.pixel(x, y)) < 128;
    return double(dark) / (area.width() * area.height());
}

}  // namespace

void TestViewExport::theSvgDeviceKeepsClipsPiecesDashesAndHatches() {
    QImage pixels(200, 100, QImage::Format_RGB32);
    {
        QPainter painter(&pixels);
        paintScene(painter);
    }
    SvgPaintDevice device(QSize(200, 100), 96, QStringLiteral("scene"), QStringLiteral("test"));
    {
        QPainter painter(&device);
        paintScene(painter);
    }
    const QByteArray svg = device.document();
    QVERIFY(svg.contains(">Clipped at sixty pixels</text>"));
    QTemporaryDir dir;
    const QImage drawn = rsvgDrawn(svg, dir.path()).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(drawn.size(), pixels.size());
    QCOMPARE(drawn.pixel(25, 25), qRgb(255, 0, 0));      // inside the clip
    QCOMPARE(drawn.pixel(75, 25), qRgb(255, 255, 255));  // cut by it
    QCOMPARE(drawn.pixel(120, 20), qRgb(0, 255, 0));     // the piece drawn, not the whole pixmap
    QVERIFY(ink(drawn, QRect(0, 56, 60, 20)) > 0.02);    // the text is there
    QCOMPARE(ink(drawn, QRect(62, 56, 138, 20)), 0.0);   // the text's end is clipped
    for (const QRect& area : {QRect(0, 80, 200, 1), QRect(152, 2, 46, 46)}) {
        const double expected = ink(pixels, area);
        QVERIFY2(std::abs(ink(drawn, area) - expected) < 0.08,
                 qPrintable(
                     QStringLiteral("ink %1 against Qt's %2").arg(ink(drawn, area)).arg(expected)));
    }
}

void TestViewExport::everyViewIsWrittenAsPngAndSvgAtTheSizeAsked() {
    const QSize size(900, 560);
    for (const ViewRegistration& registration : studioViews()) {
        const QString id = QLatin1String(registration.id);
        const QString png = dir_.filePath(id + QStringLiteral(".png"));
        const QString svg = dir_.filePath(id + QStringLiteral(".svg"));
        QString error;
        QVERIFY2(window_->exportView({id, {}, size, png}, &error), qPrintable(error));
        QVERIFY2(window_->exportView({id, {}, size, svg}, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), size);
        QVERIFY2(drawnPixels(image) > 100, registration.id);
        checkSvgOfPicture(readAll(svg), image, registration.id);
        if (QTest::currentTestFailed()) return;
        const SvgContents contents = svgContents(readAll(svg));
        QVERIFY2(contents.description.contains(
                     QCoreApplication::translate("StudioViews", registration.title)),
                 qPrintable(contents.description));
        QVERIFY2(contents.description.contains(QStringLiteral("900 × 560 px")),
                 qPrintable(contents.description));
    }
}

// A view that is all content (the plan tree): as on screen, the picture is
// its own pixels.
void TestViewExport::aViewAsOnScreenIsItsPixels() {
    StudioView* tree = window_->views()[1];
    QVERIFY(tree->widget()->isVisible());
    const QString png = dir_.filePath(QStringLiteral("tree-on-screen.png"));
    const QString svg = dir_.filePath(QStringLiteral("tree-on-screen.svg"));
    QString error;
    QVERIFY2(window_->exportView({QStringLiteral("planTree"), {}, {}, png}, &error),
             qPrintable(error));
    QVERIFY2(window_->exportView({QStringLiteral("planTree"), {}, {}, svg}, &error),
             qPrintable(error));
    const QImage image(png);
    QCOMPARE(image, tree->widget()->grab().toImage().convertToFormat(image.format()));
    checkSvgOfPicture(readAll(svg), image, "planTree as on screen");
    // The plan tree's rows are text in the SVG, a parameter's name among them.
    QVERIFY(readAll(svg).contains("embed"));

    // A view behind another dock's tab comes to the front to be exported.
    window_->findChild<QDockWidget*>(QStringLiteral("traceDock"))->raise();
    QApplication::processEvents();
    QWidget* verification = window_->views()[viewIndexOf("verification")]->widget();
    QVERIFY(verification->visibleRegion().isEmpty());
    const QString behind = dir_.filePath(QStringLiteral("verification-on-screen.png"));
    QVERIFY2(window_->exportView({QStringLiteral("verification"), {}, {}, behind}, &error),
             qPrintable(error));
    QVERIFY(!verification->visibleRegion().isEmpty());
    QCOMPARE(QImage(behind).size(), verification->size());
}

namespace {

QImage asRgb(const QImage& image) {
    return image.convertToFormat(QImage::Format_RGB32);
}

}  // namespace

// As on screen, a view with controls is its drawing alone: the mesh's
// canvas as it shows it (zoomed in too), not the combo boxes over it; the
// tensor layout's canvas at its width with the blocks and the whole legend,
// which the dock scrolls, and no scroll bar.
void TestViewExport::asOnScreenIsTheDrawingWithoutControls() {
    QString error;
    MeshCanvas* mesh = window_->view<MeshWidget>()->canvas();
    const QString meshPng = dir_.filePath(QStringLiteral("mesh-as-shown.png"));
    QVERIFY2(window_->exportView({QStringLiteral("mesh"), {}, {}, meshPng}, &error),
             qPrintable(error));
    QCOMPARE(asRgb(QImage(meshPng)), asRgb(mesh->grab().toImage()));
    mesh->zoomIn();
    QApplication::processEvents();
    QVERIFY2(window_->exportView({QStringLiteral("mesh"), {}, {}, meshPng}, &error),
             qPrintable(error));
    QCOMPARE(asRgb(QImage(meshPng)), asRgb(mesh->grab().toImage()));
    mesh->resetZoom();

    // The tensor layout of a param whose legend runs below its dock's bottom.
    auto* tensor = window_->view<TensorLayoutWidget>();
    window_->selection()->selectParam(0);
    QApplication::processEvents();
    TensorLayoutCanvas* canvas = tensor->canvas();
    QVERIFY2(canvas->height() > canvas->parentWidget()->height(), "the dock does not scroll");
    const QString png = dir_.filePath(QStringLiteral("tensor-as-shown.png"));
    QVERIFY2(window_->exportView({QStringLiteral("tensorLayout"), {}, {}, png}, &error),
             qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.width(), canvas->width());
    QCOMPARE(asRgb(image), asRgb(canvas->renderImage(image.size())));
    // Its legend is whole (the blocks, then the notes and the coordinates
    // under them) with at most a margin below it.
    const TensorGrid grid = canvas->grid(image.size());
    const double legendBottom =
        grid.area.bottom() + 16 + canvas->narrowLegendHeight(image.width() - 24);
    QVERIFY2(image.height() >= legendBottom && image.height() <= legendBottom + 16,
             qPrintable(QStringLiteral("%1 px tall, the legend ends at %2")
                            .arg(image.height())
                            .arg(legendBottom)));
}

// A part (a step) is drawn as --screenshot draws it, at the size asked; the
// window's own view is put back afterwards: its size in its scrolled dock,
// shown. A view behind another tab comes to the front to be drawn.
void TestViewExport::aPartIsDrawnAndTheViewPutBack() {
    const size_t stepsIndex = viewIndexOf("steps");
    QCOMPARE(QLatin1String(studioViews()[stepsIndex].id), QLatin1String("steps"));
    QWidget* steps = window_->views()[stepsIndex]->widget();
    const QList<ViewShot> shots = window_->views()[stepsIndex]->screenshots();
    QVERIFY(shots.size() >= 2);
    QString error;
    QStringList paths;
    for (const ViewShot& shot : {shots.front(), shots.back()}) {
        paths << dir_.filePath(QStringLiteral("steps-%1.svg").arg(shot.part));
        QVERIFY2(window_->exportView(
                     {QStringLiteral("steps"), shot.part, QSize(1000, 420), paths.back()}, &error),
                 qPrintable(error));
        QVERIFY(steps->isVisible());
        const QSize held = steps->size();
        QApplication::processEvents();
        QCOMPARE(steps->size(), held);
        QVERIFY2(steps->size() != QSize(1000, 420), "the view stayed at the exported size");
    }
    QVERIFY(readAll(paths[0]) != readAll(paths[1]));
    QVERIFY(svgContents(readAll(paths[0])).description.contains(shots.front().part));
}

void TestViewExport::theClipboardGetsTheViewAtItsSize() {
    for (const char* id : {"mesh", "memory"}) {
        QGuiApplication::clipboard()->clear();
        QVERIFY(window_->copyView(QLatin1String(id)));
        const int index = [&] {
            for (size_t i = 0; i < studioViews().size(); ++i)
                if (QLatin1String(studioViews()[i].id) == QLatin1String(id)) return int(i);
            return -1;
        }();
        StudioView* view = window_->views()[size_t(index)];
        const QMimeData* data = QGuiApplication::clipboard()->mimeData();
        QVERIFY(data && data->hasImage());
        const QImage image = qvariant_cast<QImage>(data->imageData());
        QCOMPARE(image.size(), view->shownPictureSize());
        QVERIFY2(drawnPixels(image) > 100, id);
        QVERIFY(data->hasFormat(QStringLiteral("image/svg+xml")));
        checkSvgOfPicture(data->data(QStringLiteral("image/svg+xml")), image, id);
    }
}

// Installed once for every registered view: a right click deep inside any
// of them (here on a child) opens the same menu, and it acts on that view.
void TestViewExport::aRightClickOnAnyViewOffersExportAndCopy() {
    for (size_t i = 0; i < studioViews().size(); ++i) {
        QWidget* view = window_->views()[i]->widget();
        // The deepest widget at the view's centre, as a click there reaches it.
        const QPoint centre = view->rect().center();
        QWidget* target = view->childAt(centre) ? view->childAt(centre) : view;
        const QPoint at = target->mapFrom(view, centre);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, target->mapToGlobal(at));
        QApplication::sendEvent(target, &event);
        QMenu* menu = window_->findChild<QMenu*>(QStringLiteral("viewMenu"));
        QVERIFY2(menu, qPrintable(QStringLiteral("%1 (a click on its %2)")
                                      .arg(QLatin1String(studioViews()[i].id),
                                           QLatin1String(target->metaObject()->className()))));
        QStringList texts;
        for (QAction* action : menu->actions()) texts << action->text();
        QCOMPARE(texts, QStringList({QStringLiteral("Export View…"),
                                     QStringLiteral("Copy View as Image")}));
        QCOMPARE(window_->activeViewId(), QLatin1String(studioViews()[i].id));
        QGuiApplication::clipboard()->clear();
        menu->actions()[1]->trigger();
        menu->close();
        delete menu;
        const QMimeData* data = QGuiApplication::clipboard()->mimeData();
        QVERIFY2(data && data->hasImage(), studioViews()[i].id);
        QCOMPARE(qvariant_cast<QImage>(data->imageData()).size(),
                 window_->views()[i]->shownPictureSize());
    }
}

// The view last clicked (its dock's tab, title bar or any of it) or
// tabbed into; not the one Qt gives the focus back to when the window is
// activated again.
void TestViewExport::theDialogOpensOnTheViewLastWorkedIn() {
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    auto* meshBox = window_->view<MeshWidget>()->findChild<QComboBox*>();
    QVERIFY(meshBox);
    meshBox->setFocus(Qt::TabFocusReason);
    QCOMPARE(window_->activeViewId(), QStringLiteral("mesh"));
    // A click on the tensor layout's "Rows" label: nothing there takes the focus.
    QLabel* rows = nullptr;
    for (QLabel* label : window_->view<TensorLayoutWidget>()->findChildren<QLabel*>())
        if (label->text() == QStringLiteral("Rows")) rows = label;
    QVERIFY(rows);
    QTest::mouseClick(rows, Qt::LeftButton);
    QCOMPARE(window_->activeViewId(), QStringLiteral("tensorLayout"));
    QCOMPARE(QApplication::focusWidget(), meshBox);
    // Another window, then this one again: Qt gives the mesh's box its focus back.
    QWidget other;
    other.show();
    other.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&other));
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    QCOMPARE(QApplication::focusWidget(), meshBox);
    QCOMPARE(window_->activeViewId(), QStringLiteral("tensorLayout"));
    ExportViewDialog* dialog = window_->openExportViewDialog();
    QCOMPARE(dialog->findChild<QComboBox*>(QStringLiteral("view"))->currentData().toString(),
             QStringLiteral("tensorLayout"));
    dialog->reject();

    // A dock's tab brings its view to the front: that is the one.
    QTabBar* tabs = nullptr;
    int memoryTab = -1;
    for (QTabBar* bar : window_->findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == QStringLiteral("Memory")) tabs = bar, memoryTab = i;
    QVERIFY(tabs);
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(memoryTab).center());
    QCOMPARE(window_->activeViewId(), QStringLiteral("memory"));
    // A dock's title bar.
    auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("ownerBalanceDock"));
    QTest::mouseClick(dock, Qt::LeftButton, {}, QPoint(dock->width() / 2, 4));
    QCOMPARE(window_->activeViewId(), QStringLiteral("ownerBalance"));
    // Tab into a view.
    window_->view<TensorLayoutWidget>()->findChild<QComboBox*>()->setFocus(Qt::TabFocusReason);
    QCOMPARE(window_->activeViewId(), QStringLiteral("tensorLayout"));
}

// The folder of the last picture written is where the next Export View…,
// in this studio or the next one, proposes to write.
void TestViewExport::theDialogKeepsTheFolderLastWrittenTo() {
    const QString folder = dir_.filePath(QStringLiteral("slides"));
    QVERIFY(QDir().mkpath(folder));
    {
        // Nothing written yet: the first picture and report go to a user
        // folder, not beside the scenario (the clone's samples/).
        QSettings().remove(QStringLiteral("export"));  // the pictures of the tests before
        MainWindow fresh;
        QVERIFY(openAndWait(fresh, sample(QStringLiteral("teaching_2x2.json"))));
        ExportViewDialog* first = fresh.openExportViewDialog(QStringLiteral("mesh"));
        const QString firstPath = first->findChild<QLineEdit*>(QStringLiteral("path"))->text();
        QCOMPARE(QFileInfo(firstPath).absolutePath(), userFolder());
        QCOMPARE(QFileInfo(fresh.suggestedReportPath()).absolutePath(), userFolder());
        first->reject();
    }
    ExportViewDialog* dialog = window_->openExportViewDialog(QStringLiteral("tensorLayout"));
    auto* path = dialog->findChild<QLineEdit*>(QStringLiteral("path"));
    QVERIFY2(!path->text().startsWith(folder), qPrintable(path->text()));
    path->setText(QDir(folder).filePath(QStringLiteral("mine.png")));
    dialog->accept();
    QVERIFY(QFileInfo::exists(QDir(folder).filePath(QStringLiteral("mine.png"))));

    dialog = window_->openExportViewDialog(QStringLiteral("mesh"));
    path = dialog->findChild<QLineEdit*>(QStringLiteral("path"));
    QCOMPARE(QFileInfo(path->text()).absolutePath(), folder);
    QVERIFY2(path->text().endsWith(QStringLiteral("teaching_2x2-mesh.png")),
             qPrintable(path->text()));
    dialog->reject();

    MainWindow next;
    QVERIFY(openAndWait(next, sample(QStringLiteral("teaching_2x2.json"))));
    dialog = next.openExportViewDialog(QStringLiteral("memory"));
    path = dialog->findChild<QLineEdit*>(QStringLiteral("path"));
    QCOMPARE(QFileInfo(path->text()).absolutePath(), folder);
    QVERIFY2(path->text().endsWith(QStringLiteral("teaching_2x2-memory.png")),
             qPrintable(path->text()));
    dialog->reject();

    // A folder since removed: the user's documents folder again, never the
    // scenario's (the clone's samples/).
    QVERIFY(QDir(folder).removeRecursively());
    dialog = next.openExportViewDialog(QStringLiteral("memory"));
    const QString again =
        QFileInfo(dialog->findChild<QLineEdit*>(QStringLiteral("path"))->text()).absolutePath();
    QCOMPARE(again, userFolder());
    QVERIFY(again != QFileInfo(sample(QStringLiteral("teaching_2x2.json"))).absolutePath());
    dialog->reject();
}

// A label's '&' marks its shortcut letter, which works only with a buddy:
// without one the label shows the '&' itself ("&File:").
void TestViewExport::theDialogsLabelsShowNoAmpersand() {
    ExportViewDialog* dialog = window_->openExportViewDialog(QStringLiteral("mesh"));
    int labelled = 0;
    for (QLabel* label : dialog->findChildren<QLabel*>()) {
        QString text = label->text();
        text.remove(QStringLiteral("&&"));
        if (!text.contains(QLatin1Char('&'))) continue;
        QVERIFY2(label->buddy(), qPrintable(label->text()));
        ++labelled;
    }
    QVERIFY(labelled >= 3);  // View, Shows, File
    dialog->reject();
}

void TestViewExport::theDialogsChoicesReachTheFile() {
    // The dialog opens on the view last clicked.
    QWidget* balance = window_->views()[3]->widget();
    QTest::mouseClick(balance, Qt::LeftButton, {}, QPoint(5, 5));
    QCOMPARE(window_->activeViewId(), QStringLiteral("ownerBalance"));
    ExportViewDialog* dialog = window_->openExportViewDialog();
    auto* view = dialog->findChild<QComboBox*>(QStringLiteral("view"));
    QCOMPARE(view->currentData().toString(), QStringLiteral("ownerBalance"));
    auto* path = dialog->findChild<QLineEdit*>(QStringLiteral("path"));
    QVERIFY2(path->text().endsWith(QStringLiteral("teaching_2x2-owner-balance.png")),
             qPrintable(path->text()));

    // Another view, its second part, a preset size, an SVG.
    QVERIFY(dialog->selectView(QStringLiteral("trace")));
    QVERIFY(path->text().endsWith(QStringLiteral("teaching_2x2-trace.png")));
    auto* part = dialog->findChild<QComboBox*>(QStringLiteral("part"));
    auto* preset = dialog->findChild<QComboBox*>(QStringLiteral("preset"));
    const int hd = preset->findText(QStringLiteral("1280 × 720 (HD slide)"));
    QVERIFY(hd > 0);
    preset->activated(hd);  // as the user's pick emits it
    QVERIFY(dialog->findChild<QRadioButton*>(QStringLiteral("chosenSize"))->isChecked());
    const QString svg = dir_.filePath(QStringLiteral("dialog.svg"));
    path->setText(svg);
    const ViewExportRequest wanted = dialog->request();
    QCOMPARE(wanted.view, QStringLiteral("trace"));
    QCOMPARE(wanted.size, QSize(1280, 720));
    QCOMPARE(wanted.part, part->currentData().toString());
    dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
    QVERIFY(!dialog->isVisible());
    QSvgRenderer renderer(readAll(svg));
    QCOMPARE(renderer.viewBox(), QRect(0, 0, 1280, 720));
    QVERIFY(svgContents(readAll(svg)).description.contains(QStringLiteral("Trace")));

    // A width and height typed in, the view as on screen, a PNG.
    dialog = window_->openExportViewDialog(QStringLiteral("memory"));
    dialog->findChild<QRadioButton*>(QStringLiteral("chosenSize"))->setChecked(true);
    dialog->findChild<QSpinBox*>(QStringLiteral("width"))->setValue(777);
    dialog->findChild<QSpinBox*>(QStringLiteral("height"))->setValue(333);
    const QString png = dir_.filePath(QStringLiteral("dialog.png"));
    dialog->findChild<QLineEdit*>(QStringLiteral("path"))->setText(png);
    dialog->accept();
    QCOMPARE(QImage(png).size(), QSize(777, 333));

    // At the view's size on screen.
    dialog = window_->openExportViewDialog(QStringLiteral("mesh"));
    QVERIFY(dialog->findChild<QRadioButton*>(QStringLiteral("onScreenSize"))->isChecked());
    const QString onScreen = dir_.filePath(QStringLiteral("dialog-mesh.png"));
    dialog->findChild<QLineEdit*>(QStringLiteral("path"))->setText(onScreen);
    dialog->accept();
    QCOMPARE(QImage(onScreen).size(), window_->view<MeshWidget>()->canvas()->size());
}

void TestViewExport::aPathThatCannotBeWrittenIsRefusedWithItsName() {
    const QString missing = dir_.filePath(QStringLiteral("no/such/folder/mesh.png"));
    QString error;
    QVERIFY(!window_->exportView({QStringLiteral("mesh"), {}, QSize(400, 300), missing}, &error));
    QVERIFY2(error.contains(missing), qPrintable(error));
    const QString jpeg = dir_.filePath(QStringLiteral("mesh.jpg"));
    QVERIFY(!window_->exportView({QStringLiteral("mesh"), {}, QSize(400, 300), jpeg}, &error));
    QVERIFY2(error.contains(jpeg) && error.contains(QStringLiteral(".svg")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(jpeg));
    QVERIFY(!window_->exportView({QStringLiteral("noSuchView"), {}, {}, jpeg}, &error));
    QVERIFY2(error.contains(QStringLiteral("noSuchView")), qPrintable(error));

    // In the dialog: the refusal is shown and the dialog stays open.
    ExportViewDialog* dialog = window_->openExportViewDialog(QStringLiteral("mesh"));
    dialog->findChild<QLineEdit*>(QStringLiteral("path"))->setText(missing);
    dialog->accept();
    QVERIFY(dialog->isVisible());
    auto* shown = dialog->findChild<QLabel*>(QStringLiteral("error"));
    QVERIFY(shown->isVisible());
    QVERIFY2(shown->text().contains(missing), qPrintable(shown->text()));
    dialog->reject();
}

// --screenshot-format svg writes every screenshot as an SVG (and no PNG);
// png,svg writes both; a format it does not know is refused by name.
void TestViewExport::screenshotWritesSvgs() {
    ScreenshotFormats formats;
    QString error;
    QVERIFY(parseScreenshotFormats(QStringLiteral("svg,png"), &formats, &error));
    QVERIFY(formats.png && formats.svg);
    QVERIFY(!parseScreenshotFormats(QStringLiteral("png,jpeg"), &formats, &error));
    QVERIFY2(error.contains(QStringLiteral("'jpeg'")), qPrintable(error));

    QTemporaryDir dir;
    // The studio started keeps its settings there, not in the user's.
    qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toLocal8Bit());
    const QString studio = QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio");
    testing::CliOutcome outcome = testing::runProgram(
        studio,
        {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--screenshot-format"),
         QStringLiteral("svg"), sample(QStringLiteral("teaching_2x2.json"))},
        120000);
    QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
    const QStringList svgs = QDir(dir.path()).entryList({QStringLiteral("*.svg")});
    QVERIFY(QDir(dir.path()).entryList({QStringLiteral("*.png")}).isEmpty());
    for (const char* name : {"mesh.svg", "plan-tree.svg", "owner-balance.svg", "window.svg"})
        QVERIFY2(svgs.contains(QLatin1String(name)), name);
    for (const QString& name : svgs) {
        QSvgRenderer renderer(dir.filePath(name));
        QVERIFY2(renderer.isValid() && !renderer.viewBox().isEmpty(), qPrintable(name));
        QVERIFY2(
            svgContents(readAll(dir.filePath(name))).elements.value(QStringLiteral("text")) > 0,
            qPrintable(name));
    }
    QCOMPARE(QSvgRenderer(dir.filePath(QStringLiteral("mesh.svg"))).viewBox(),
             QRect(0, 0, 1400, 900));

    outcome = testing::runProgram(
        studio, {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--screenshot-format"),
                 QStringLiteral("gif"), sample(QStringLiteral("teaching_2x2.json"))});
    QCOMPARE(outcome.exitCode, 2);
    QVERIFY2(outcome.err.contains("'gif'"), outcome.err.constData());
    outcome = testing::runProgram(studio, {QStringLiteral("--help")});
    QVERIFY(outcome.out.contains("--screenshot-format <FORMATS>"));
}

QTEST_MAIN(TestViewExport)
#include "tst_view_export.moc"
