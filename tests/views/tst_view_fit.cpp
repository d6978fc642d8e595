// SPDX-License-Identifier: Apache-2.0
// Every view is legible where the studio puts it: at 1366x768 and at the
// default 1440x900, each dock's content fits (no overlapping children, none
// below its contents' minimum; view_fit.h), the window fits the screen, the
// tensor layout's blocks are wide, table cells are shortened only between
// words, the plan tree shows owner, numel and placements without scrolling,
// and at 16,384 ranks the mesh view keeps its outlines, labels and legend
// apart.
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QProxyStyle>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTableWidget>
#include <QTreeView>
#include <QtTest>
#include <set>

#include "derived/plan/plan_index.h"
#include "derived/plan/plan_result.h"
#include "editing/edit_widget.h"
#include "mesh/mesh_canvas.h"
#include "mesh/mesh_widget.h"
#include "painting/elided_label.h"
#include "plan_tree/plan_tree_widget.h"
#include "plan_tree/widest_text.h"
#include "scenario/reader.h"
#include "studio_test_util.h"
#include "tensor_layout/tensor_layout_widget.h"
#include "view_fit.h"
#include "window/shortcuts_dialog.h"

using namespace hsdp;
using hsdp::testing::fitProblems;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

const QSize kSmallScreen(1366, 768);
const QSize kDefaultSize(1440, 900);
const QColor kOwnerColor(0xe6, 0x61, 0x00);

// Records the text of every item view cell as the style is asked to draw it.
class ItemTextRecorder : public QProxyStyle {
public:
    struct Item {
        QModelIndex index;
        QString text;
        QRect rect;
        QFont font;
        Qt::TextElideMode mode;
    };
    std::vector<Item> items;

    void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
        if (element == CE_ItemViewItem)
            if (auto* item = qstyleoption_cast<const QStyleOptionViewItem*>(option))
                const_cast<ItemTextRecorder*>(this)->items.push_back(
                    {item->index, item->text, item->rect, item->font, item->textElideMode});
        QProxyStyle::drawControl(element, option, painter, widget);
    }

    // What the cell shows: its text, or Qt's elision of it if it does not fit.
    QString shown(const Item& item, const QWidget* widget) const {
        const int margin = pixelMetric(PM_FocusFrameHMargin, nullptr, widget) + 1;
        const int width = item.rect.width() - 2 * margin;
        const QFontMetrics metrics(item.font);
        return metrics.elidedText(item.text, item.mode, width);
    }
};

// Shown text is `full`, or whole words of it from the start and/or the end
// around one "…".
bool cutBetweenWords(const QString& shown, const QString& full) {
    if (shown == full) return true;
    const qsizetype dots = shown.indexOf(QStringLiteral("…"));
    if (dots < 0) return false;
    const QString head = shown.left(dots), tail = shown.mid(dots + 1);
    auto isEnd = [](QChar c) {
        return c == QLatin1Char(' ') || c == QLatin1Char(',') || c == QLatin1Char('.');
    };
    if (!full.startsWith(head) || !full.endsWith(tail)) return false;
    const bool headWhole = head.isEmpty() || isEnd(full[head.size() - 1]);
    const bool tailWhole = tail.isEmpty() || isEnd(full[full.size() - tail.size() - 1]);
    return headWhole && tailWhole;
}

void showAt(MainWindow& window, const QSize& size) {
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QApplication::processEvents();
}

QDockWidget* raiseDock(MainWindow& window, const char* name) {
    auto* dock = window.findChild<QDockWidget*>(QLatin1String(name));
    if (!dock) return nullptr;
    dock->show();
    dock->raise();
    QApplication::processEvents();
    return dock;
}

QImage grabWithRecorder(QWidget* view, ItemTextRecorder* recorder) {
    QStyle* old = view->style();
    view->setStyle(recorder);
    QImage image = view->grab().toImage();
    view->setStyle(old);
    return image;
}

PlanResult planOf128x128() {
    return computePlanResult(
        readScenarioFile(HSDP_SOURCE_DIR "/tests/data/scale/hsdp_128x128.json"));
}

}  // namespace

class TestViewFit : public QObject {
    Q_OBJECT
private slots:
    // The widest of many texts is the one shaping every text gives.
    void widestTextIsTheShapedWidest() {
        const QFontMetrics metrics(QApplication::font());
        QStringList texts;
        for (int i = 0; i < 3000; ++i)
            texts << QStringLiteral("layers.%1.experts.%2.w%3").arg(i / 40).arg(i % 40).arg(i % 3);
        texts << QStringLiteral("WWWWWWWWWWWWWW") << QStringLiteral("iiiiiiiiiiiiiiiiiiiiiiiiiiii");
        WidestText widest(metrics);
        int expected = 0;
        for (int i = 0; i < texts.size(); ++i) {
            widest.add(texts[i], i % 7);
            expected = std::max(expected, i % 7 + metrics.horizontalAdvance(texts[i]));
        }
        QCOMPARE(widest.width(), expected);
        QCOMPARE(WidestText(metrics).width(), 0);
    }
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void defaultWindowFitsTheScreen();
    void everyDockFits_data();
    void everyDockFits();
    void tensorLayoutBlocksAreWide_data();
    void tensorLayoutBlocksAreWide();
    void whatIfCellsCutOnlyBetweenWords_data();
    void whatIfCellsCutOnlyBetweenWords();
    void planTreeShowsOwnerNumelAndPlacements_data();
    void planTreeShowsOwnerNumelAndPlacements();
    void outlinesStayVisibleAt16384Ranks();
    void rankLabelsNeverRunTogether();
    void legendNeverCoversZoomedCells();
    void windowMinimumFitsASmallScreen();
    void bottomRowIsAThirdOnAFirstStart();
    void shortcutNamesAreWhole();
};

void TestViewFit::defaultWindowFitsTheScreen() {
    MainWindow window;
    // Never larger than the screen, unless the window cannot be smaller.
    const QSize screen = window.screen()->availableSize().expandedTo(window.minimumSizeHint());
    QVERIFY2(window.width() <= screen.width() && window.height() <= screen.height(),
             qPrintable(QStringLiteral("%1x%2 on %3x%4")
                            .arg(window.width())
                            .arg(window.height())
                            .arg(screen.width())
                            .arg(screen.height())));
}

static void addSizes() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1366x768") << kSmallScreen;
    QTest::newRow("default 1440x900") << kDefaultSize;
}

void TestViewFit::everyDockFits_data() {
    addSizes();
}

// Each dock raised in turn after a run (so the run views have their tables
// and charts), its view checked where it sits.
void TestViewFit::everyDockFits() {
    QFETCH(QSize, size);
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    showAt(window, size);
    QSignalSpy ran(&window, &MainWindow::runReady);
    QVERIFY(window.startRun({}));
    QVERIFY(ran.wait(120000));
    QApplication::processEvents();
    const auto docks = window.findChildren<QDockWidget*>();
    QVERIFY(docks.size() >= 10);
    QStringList problems;
    for (QDockWidget* dock : docks) {
        if (!raiseDock(window, dock->objectName().toLatin1().constData())) continue;
        for (const QString& problem : fitProblems(dock->widget()))
            problems << dock->objectName() + QStringLiteral(": ") + problem;
    }
    // The status bar's lines (the plan's, the run's) share its width: each
    // inside it, and one given less than its text shortens it with "…".
    const QRect bar = window.statusBar()->rect();
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
        if (!label->isVisible() || label->text().isEmpty()) continue;
        const QRect at(label->mapTo(window.statusBar(), QPoint()), label->size());
        if (!bar.contains(at)) problems << QStringLiteral("status label outside the bar");
        const bool cut =
            label->fontMetrics().horizontalAdvance(label->text()) > label->contentsRect().width();
        if (cut && !qobject_cast<ElidedLabel*>(label))
            problems << QStringLiteral("status label clipped: ") + label->text();
    }
    // What qualifies the run's figures survives the shortening: the 8B run is shrunk.
    if (QLabel* label = testing::runStatusLabel(window)) {
        const QString shown = label->fontMetrics().elidedText(label->text(), Qt::ElideRight,
                                                              label->contentsRect().width());
        if (!shown.contains(QStringLiteral("shrunk run")))
            problems << QStringLiteral("the run line shows without 'shrunk run': ") + shown;
    } else {
        problems << QStringLiteral("no run line in the status bar");
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestViewFit::tensorLayoutBlocksAreWide_data() {
    addSizes();
}

// A tall tensor (128,256 x 8,192 rows) in the right column: the blocks span
// at least kMinBlocksWidth (or the whole width), not a 90-pixel sliver.
void TestViewFit::tensorLayoutBlocksAreWide() {
    QFETCH(QSize, size);
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    showAt(window, size);
    TensorLayoutCanvas* canvas = window.view<TensorLayoutWidget>()->canvas();
    QVERIFY(canvas->isVisible());
    const TensorGrid grid = canvas->grid(canvas->size());
    const double wanted = std::min(TensorLayoutCanvas::kMinBlocksWidth, canvas->width() - 100.0);
    QVERIFY2(grid.area.width() >= wanted,
             qPrintable(QStringLiteral("blocks %1 px wide in a %2x%3 canvas")
                            .arg(grid.area.width())
                            .arg(canvas->width())
                            .arg(canvas->height())));
    // The legend under the blocks is inside the canvas (the dock scrolls it).
    QVERIFY(grid.legend.bottom() <= canvas->height());
    QVERIFY(grid.legend.height() >= canvas->narrowLegendHeight(grid.legend.width()) - 1);
}

void TestViewFit::whatIfCellsCutOnlyBetweenWords_data() {
    addSizes();
}

void TestViewFit::whatIfCellsCutOnlyBetweenWords() {
    QFETCH(QSize, size);
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    showAt(window, size);
    QVERIFY(raiseDock(window, "editingDock"));
    QTableView* table = window.view<EditWidget>()->paramTable();
    ItemTextRecorder recorder;
    grabWithRecorder(table, &recorder);
    QVERIFY(!recorder.items.empty());
    int shortened = 0;
    for (const auto& item : recorder.items) {
        const QString full = item.index.data(Qt::DisplayRole).toString();
        const QString shown = recorder.shown(item, table);
        if (shown != full) ++shortened;
        QVERIFY2(cutBetweenWords(shown, full),
                 qPrintable(QStringLiteral("'%1' shows as '%2'").arg(full, shown)));
        // Only names are cut: a shape shown as "…4096" hid a vocabulary of 128,256.
        QVERIFY2(item.index.column() == 0 || shown == full,
                 qPrintable(QStringLiteral("column %1: '%2' shows as '%3'")
                                .arg(item.index.column())
                                .arg(full, shown)));
    }
    QVERIFY(shortened > 0);  // the check had something to check
    // The placements are in view without scrolling.
    const int placements = 4;
    QHeaderView* header = table->horizontalHeader();
    QVERIFY2(header->sectionViewportPosition(placements) + header->sectionSize(placements) <=
                 table->viewport()->width(),
             "the placements column is outside the table's view");
}

void TestViewFit::planTreeShowsOwnerNumelAndPlacements_data() {
    addSizes();
}

// The focus param's name, owner, numel and placements: columns inside the
// viewport, texts whole.
void TestViewFit::planTreeShowsOwnerNumelAndPlacements() {
    QFETCH(QSize, size);
    MainWindow window;
    QVERIFY(openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json")));
    showAt(window, size);
    QVERIFY(raiseDock(window, "planTreeDock"));
    QTreeView* tree = window.view<PlanTreeWidget>()->treeView();
    QHeaderView* header = tree->header();
    const int columns[] = {1, 2, 5};  // owner, numel, placements
    for (int c : columns)
        QVERIFY2(header->sectionViewportPosition(c) >= 0 &&
                     header->sectionViewportPosition(c) + header->sectionSize(c) <=
                         tree->viewport()->width(),
                 qPrintable(QStringLiteral("column %1 (%2) needs horizontal scrolling")
                                .arg(c)
                                .arg(header->model()->headerData(c, Qt::Horizontal).toString())));
    ItemTextRecorder recorder;
    grabWithRecorder(tree, &recorder);
    const QModelIndex current = tree->currentIndex();
    QVERIFY(current.isValid());
    int checked = 0;
    for (const auto& item : recorder.items) {
        if (item.index.row() != current.row() || item.index.parent() != current.parent()) continue;
        if (item.index.column() != 0 && std::find(std::begin(columns), std::end(columns),
                                                  item.index.column()) == std::end(columns))
            continue;
        QVERIFY2(!recorder.shown(item, tree).contains(QStringLiteral("…")),
                 qPrintable(QStringLiteral("'%1' is cut").arg(item.text)));
        ++checked;
    }
    QCOMPARE(checked, 4);
}

// At fit zoom a 128x128 mesh has cells of a few pixels: every owner cell
// still has an owner-coloured outline at least two pixels wide beside it.
void TestViewFit::outlinesStayVisibleAt16384Ranks() {
    PlanResult result = planOf128x128();
    QCOMPARE(result.plan->worldSize, 16384);
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    selection.selectParam(0, result.index->params[0].group, result.index->params[0].batch);
    const std::vector<int>& owners = view.overlay().ownerRanks;
    QVERIFY(!owners.empty());
    const QSize size(1200, 800);
    const QTransform fit = view.fitTransform(size);
    QVERIFY(MeshLayout::kCellSize * fit.m11() < 10);
    QImage image = view.renderImage(size);
    const std::set<int> ownerSet(owners.begin(), owners.end());
    for (int rank : owners) {
        const MeshCell& cell =
            view.meshLayout().cells()[static_cast<size_t>(view.meshLayout().cellOfRank(rank))];
        const QRectF box = fit.mapRect(cell.rect);
        // From just inside each side whose neighbour is no owner, outwards:
        // two owner pixels in a row.
        const int row = static_cast<int>(cell.coord[0]), col = static_cast<int>(cell.coord[1]);
        struct Side {
            bool open;
            QPoint start, step;
        };
        const QPoint mid = box.center().toPoint();
        const Side sides[] = {
            {row == 0 || !ownerSet.count(rank - 128),
             {mid.x(), static_cast<int>(box.top()) + 1},
             {0, -1}},
            {row == 127 || !ownerSet.count(rank + 128),
             {mid.x(), static_cast<int>(box.bottom()) - 1},
             {0, 1}},
            {col == 0 || !ownerSet.count(rank - 1),
             {static_cast<int>(box.left()) + 1, mid.y()},
             {-1, 0}},
            {col == 127 || !ownerSet.count(rank + 1),
             {static_cast<int>(box.right()) - 1, mid.y()},
             {1, 0}},
        };
        for (const Side& side : sides) {
            if (!side.open) continue;
            int run = 0, best = 0;
            for (int k = 0; k < 16; ++k) {
                run = image.pixelColor(side.start + k * side.step) == kOwnerColor ? run + 1 : 0;
                best = std::max(best, run);
            }
            QVERIFY2(best >= 2, qPrintable(QStringLiteral("rank %1: no visible owner outline "
                                                          "(%2 px)")
                                               .arg(rank)
                                               .arg(best)));
        }
    }
}

// Zoomed until cells are 24 px, five-digit ranks do not fit: no label runs
// into a neighbour (the two pixels inside each cell's sides hold only the
// cell's fill or the gap's background).
void TestViewFit::rankLabelsNeverRunTogether() {
    PlanResult result = planOf128x128();
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    const QSize size(1200, 800);
    const double cell = 24.0, scale = cell / MeshLayout::kCellSize;
    QVERIFY(MeshCanvas::detailFor(cell) == MeshCanvas::Detail::Rank);
    const QTransform zoomed(scale, 0, 0, scale, 0, -100 * cell);  // rows 100+: ranks 12,800+
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    {
        QPainter painter(&image);
        view.paintMesh(painter, size, zoomed);
    }
    const QColor base = view.palette().color(QPalette::Base);
    int probed = 0;
    for (const MeshCell& c : view.meshLayout().cells()) {
        const QRectF box = zoomed.mapRect(c.rect);
        if (box.top() < 0 || box.bottom() > size.height() || box.left() < 2 ||
            box.right() > size.width() - MeshCanvas::kLegendWidth)
            continue;
        const QColor fill = view.heatScale().colorFor(result.index->ownedNumel[c.rank]);
        const int left = static_cast<int>(std::ceil(box.left())) + 1;
        const int right = static_cast<int>(std::floor(box.right())) - 3;
        for (int y = static_cast<int>(box.top()) + 2; y < static_cast<int>(box.bottom()) - 2; ++y)
            for (int x : {left, left + 1, right, right + 1}) {
                const QColor pixel = image.pixelColor(x, y);
                QVERIFY2(pixel == fill || pixel == base,
                         qPrintable(QStringLiteral("text at the edge of rank %1 (%2,%3)")
                                        .arg(c.rank)
                                        .arg(x)
                                        .arg(y)));
            }
        ++probed;
    }
    QVERIFY(probed > 100);
}

// Zoomed in far enough that cells fill the view, the legend's strip shows
// the legend on the background, no cell beneath it.
void TestViewFit::legendNeverCoversZoomedCells() {
    PlanResult result = planOf128x128();
    PlanSelection selection;
    MeshCanvas view(&selection);
    view.setResult(result);
    view.resize(1200, 800);
    for (int i = 0; i < 12; ++i) view.zoomIn();
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
        QPainter painter(&image);
        view.paintMesh(painter, view.size(), view.canvasTransform(view.size()));
    }
    const QColor base = view.palette().color(QPalette::Base);
    QCOMPARE(image.pixelColor(100, 400) != base, true);  // cells fill the area left of it
    // Below the legend's text, down its strip: background only.
    for (int y = 600; y < 790; y += 10)
        for (int x = 1200 - static_cast<int>(MeshCanvas::kLegendWidth) + 2; x < 1198; x += 8)
            QVERIFY2(image.pixelColor(x, y) == base,
                     qPrintable(QStringLiteral("a cell under the legend at %1,%2").arg(x).arg(y)));
}

// With its docks where they open, the window can shrink to a 1366x768
// screen less its panels: docks whose content needs more scroll instead.
void TestViewFit::windowMinimumFitsASmallScreen() {
    for (const QSize& size : {kSmallScreen, kDefaultSize}) {
        MainWindow window;
        showAt(window, size);
        openAndWait(window, sample("llama3_70b_hsdp_tp_2x4x4.json"));
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 700,
                 qPrintable(QStringLiteral("at %1x%2: minimum %3x%4")
                                .arg(size.width())
                                .arg(size.height())
                                .arg(minimum.width())
                                .arg(minimum.height())));
        window.resize(1366, 700);
        QApplication::processEvents();
        QVERIFY2(window.height() <= 700, qPrintable(QString::number(window.height())));
    }
}

// A first start (no saved layout) gives the bottom row, where the Memory and
// Trace views are, about a third of the window's height: a fifth left them
// about 100 pixels of content at 1440x900.
void TestViewFit::bottomRowIsAThirdOnAFirstStart() {
    QSettings().remove(QStringLiteral("window/state"));
    for (const QSize& size : {kSmallScreen, kDefaultSize}) {
        MainWindow window;
        showAt(window, size);
        openAndWait(window, sample("llama3_8b_hsdp_2x4.json"));
        QApplication::processEvents();
        QDockWidget* bottom = window.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
        QVERIFY(bottom);
        QCOMPARE(window.dockWidgetArea(bottom), Qt::BottomDockWidgetArea);
        const double share = double(bottom->height()) / window.height();
        QVERIFY2(share >= 0.28 && share <= 0.4,
                 qPrintable(QStringLiteral("at %1x%2: the bottom row is %3 pixels high")
                                .arg(window.width())
                                .arg(window.height())
                                .arg(bottom->height())));
    }
}

// Help ▸ Keyboard shortcuts: every action's name and keys show whole, inside
// the table's viewport, never elided ("New from Model Config" was cut).
void TestViewFit::shortcutNamesAreWhole() {
    MainWindow window;
    std::unique_ptr<QDialog> dialog(makeShortcutsDialog(window.shortcutActions(), &window));
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutTable"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), static_cast<int>(window.shortcutActions().size()));
    const int margin =
        table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
    const QFontMetrics metrics(table->font());
    int checked = 0;
    for (int row = 0; row < table->rowCount(); ++row)
        for (int column = 0; column < 2; ++column) {
            const QTableWidgetItem* item = table->item(row, column);
            const QRect rect = table->visualItemRect(item);
            const int needed = metrics.horizontalAdvance(item->text()) + 2 * margin;
            QVERIFY2(rect.width() >= needed && rect.right() < table->viewport()->width(),
                     qPrintable(QStringLiteral("'%1': %2 px of %3, right edge %4 of %5")
                                    .arg(item->text())
                                    .arg(rect.width())
                                    .arg(needed)
                                    .arg(rect.right())
                                    .arg(table->viewport()->width())));
            ++checked;
        }
    QVERIFY(checked > 20);
}

QTEST_MAIN(TestViewFit)
#include "tst_view_fit.moc"
