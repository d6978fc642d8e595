// SPDX-License-Identifier: Apache-2.0
// MeshCanvas's painting: cells, labels by level of detail, selection overlays,
// panel titles and the legend. Cells are filled without antialiasing so each
// cell's pixels are exactly its HeatScale colour.
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPicture>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "derived/plan/plan_index.h"
#include "mesh/mesh_canvas.h"
#include "mesh/mesh_paint_style.h"

namespace hsdp {

using namespace mesh_paint;

MeshCanvas::Detail MeshCanvas::detailFor(double cellPixels) {
    if (cellPixels >= 56) return Detail::RankAndCoordinate;
    // 16 px holds a two-digit rank at the 9 px floor: a 1 x 16 mesh in a
    // 520 px dock (20 px cells) was a strip without a number.
    if (cellPixels >= 16) return Detail::Rank;
    if (cellPixels >= 4) return Detail::Cells;
    return Detail::DenseCells;
}

void MeshCanvas::paintMesh(QPainter& painter, const QSize& size, const QTransform& toDevice) const {
    painter.fillRect(QRect(QPoint(), size), palette().color(QPalette::Base));
    if (level() == Level::Overview) return paintOverview(painter, size, toDevice);
    if (layout_.cells().empty()) return paintEmpty(painter, size);
    // The legend's strip is outside the cell area: cells zoomed or panned
    // under it are clipped, never drawn beneath its text.
    const QRectF cellArea(0, 0, std::max(0.0, size.width() - kLegendWidth), size.height());
    painter.save();
    painter.setClipRect(cellArea);
    QRectF visible = toDevice.inverted().mapRect(cellArea);
    paintCells(painter, toDevice, visible);
    double cellPixels = MeshLayout::kCellSize * toDevice.m11();
    paintNodeBoundaries(painter, toDevice, visible, cellPixels);
    // Outlines of small cells run along the cells' outer edges, where a
    // compute flag's corner would cover them: the flags go first there.
    const std::vector<int>& computes = overlay_.computeRanks;
    if (cellPixels < kCellOutlinePixels)
        paintComputeMarks(painter, toDevice, cellPixels, layout_, computes);
    paintOverlays(painter, toDevice, cellPixels, layout_, overlay_);
    if (cellPixels >= kCellOutlinePixels)
        paintComputeMarks(painter, toDevice, cellPixels, layout_, computes);
    paintFaultMarks(painter, toDevice, cellPixels);
    paintPanelTitles(painter, toDevice, layout_);
    if (level() == Level::Zoomed) paintMinimap(painter, cellArea, toDevice);
    paintBand(painter);
    painter.restore();
    paintFittedLegend(painter, size, cellPixels);
}

// The legend whole: scaled down when the canvas is shorter than its lines (a
// 4-rank mesh in a short dock, or its export as on screen, cut the fault line).
void MeshCanvas::paintFittedLegend(QPainter& painter, const QSize& size, double cellPixels) const {
    // The heat bar's length follows the height it is given, so the scale is
    // found by a few measurements, each at the height the last one leaves.
    const auto bottomAt = [&](const QSize& at) {
        QPicture measured;
        QPainter measuring(&measured);
        measuring.setFont(painter.font());
        return paintLegend(measuring, at, cellPixels);
    };
    const double room = size.height() - 8.0;
    double scale = 1;
    for (int attempt = 0; attempt < 4; ++attempt) {
        const QSize at(size.width(), int(size.height() / scale));
        const double bottom = bottomAt(at);
        if (bottom <= room / scale || bottom <= 0) break;
        scale = std::max(0.5, scale * (room / scale) / bottom);
        if (scale == 0.5) break;
    }
    if (scale >= 1) {
        paintLegend(painter, size, cellPixels);
        return;
    }
    const double left = size.width() - kLegendWidth;
    painter.save();
    painter.translate(left, 0);
    painter.scale(scale, scale);
    painter.translate(-left, 0);
    paintLegend(painter, QSize(size.width(), int(size.height() / scale)), cellPixels);
    painter.restore();
}

void MeshCanvas::paintCells(QPainter& painter, const QTransform& toDevice,
                            const QRectF& visible) const {
    const double cellPixels = MeshLayout::kCellSize * toDevice.m11();
    const Detail detail = detailFor(cellPixels);
    const double gap = detail == Detail::DenseCells ? 0.0 : std::clamp(cellPixels * 0.04, 1.0, 3.0);
    if (detail == Detail::Cells || detail == Detail::DenseCells)
        return paintCellBlocks(painter, toDevice, gap);
    painter.setRenderHint(QPainter::Antialiasing, false);
    QFont rankFont = painter.font();
    rankFont.setPixelSize(std::clamp(static_cast<int>(cellPixels * 0.28), 9, 22));
    rankFont.setBold(true);
    QFont coordFont = rankFont;
    coordFont.setBold(false);
    coordFont.setPixelSize(std::max(8, rankFont.pixelSize() * 2 / 3));
    const QFontMetricsF rankMetrics(rankFont), coordMetrics(coordFont);
    for (const MeshCell& cell : layout_.cells()) {
        if (!visible.intersects(cell.rect)) continue;
        QRectF box = toDevice.mapRect(cell.rect).adjusted(gap / 2, gap / 2, -gap / 2, -gap / 2);
        QColor fill = heat_.colorFor(computedNumelOf(cell.rank));
        painter.fillRect(box, fill);
        const QString rank = QString::number(cell.rank);
        // A label wider than its cell would run into the next one's (five-
        // digit ranks of a 128x128 mesh): such a cell goes without.
        if (rankMetrics.horizontalAdvance(rank) > box.width() - 2) continue;
        painter.setPen(HeatScale::textOn(fill));
        painter.setFont(rankFont);
        if (detail == Detail::Rank) {
            painter.drawText(box, Qt::AlignCenter, rank);
            continue;
        }
        QRectF top(box.left(), box.top(), box.width(), box.height() * 0.55);
        QRectF bottom(box.left(), box.top() + box.height() * 0.55, box.width(), box.height() * 0.4);
        painter.drawText(top, Qt::AlignHCenter | Qt::AlignBottom, rank);
        const QString coordinate = coordinateText(cell.coord);
        if (coordMetrics.horizontalAdvance(coordinate) > box.width() - 2) continue;
        painter.setFont(coordFont);
        painter.drawText(bottom, Qt::AlignHCenter | Qt::AlignTop, coordinate);
    }
}

int64_t MeshCanvas::computedNumelOf(int rank) const {
    const auto& computed = result_.index->computedNumel;
    return rank >= 0 && static_cast<size_t>(rank) < computed.size()
               ? computed[static_cast<size_t>(rank)]
               : 0;
}

QRectF MeshCanvas::computeMarkRect(const QRectF& cellBox, double cellPixels) {
    const double side = std::clamp(cellPixels * 0.3, 5.0, 24.0);
    return QRectF(cellBox.right() - side, cellBox.top(), side, side);
}

// Small cells: each panel as an image with one pixel per cell, scaled up
// without smoothing, then the gaps drawn as lines. 8,192 cells cost one blit
// per panel instead of 8,192 rectangle fills.
void MeshCanvas::paintCellBlocks(QPainter& painter, const QTransform& toDevice, double gap) const {
    const auto& cells = layout_.cells();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    const QColor background = palette().color(QPalette::Base);
    for (const MeshPanel& panel : layout_.panels()) {
        const int columns = static_cast<int>(panel.cols), rows = static_cast<int>(panel.rows);
        QImage image(columns, rows, QImage::Format_RGB32);
        for (int i = 0; i < columns * rows; ++i)
            image.setPixel(
                i % columns, i / columns,
                heat_
                    .colorFor(computedNumelOf(cells[panel.firstCell + static_cast<size_t>(i)].rank))
                    .rgb());
        QRectF target = toDevice.mapRect(panel.rect);
        painter.drawImage(target, image);
        if (gap <= 0) continue;
        for (int c = 0; c <= columns; ++c) {
            double x = target.left() + target.width() * c / columns;
            painter.fillRect(QRectF(x - gap / 2, target.top(), gap, target.height()), background);
        }
        for (int r = 0; r <= rows; ++r) {
            double y = target.top() + target.height() * r / rows;
            painter.fillRect(QRectF(target.left(), y - gap / 2, target.width(), gap), background);
        }
    }
}

void MeshCanvas::paintOverlays(QPainter& painter, const QTransform& toDevice, double cellPixels,
                               const MeshLayout& layout, const SelectionOverlay& overlay) const {
    if (cellPixels < kCellOutlinePixels)
        return paintSetOutlines(painter, toDevice, layout, overlay);
    const double scale = std::clamp(cellPixels / 48.0, 0.35, 1.5);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    for (const OverlayStyle& style : overlayStyles(overlay)) {
        if (style.ranks->empty()) continue;
        double width = std::max(1.0, style.width * scale);
        double inset = style.inset * scale + width / 2;
        for (int rank : *style.ranks) {
            int cell = layout.cellOfRank(rank);
            if (cell < 0) continue;
            QRectF box = toDevice.mapRect(layout.cells()[static_cast<size_t>(cell)].rect);
            if (box.width() > 2 * inset + 2)
                fillOutline(painter, box.adjusted(inset, inset, -inset, -inset), width,
                            style.color);
        }
    }
}

// The ranks that run the focus param's Newton–Schulz, flagged on top of the outlines.
void MeshCanvas::paintComputeMarks(QPainter& painter, const QTransform& toDevice, double cellPixels,
                                   const MeshLayout& layout, const std::vector<int>& ranks) const {
    if (ranks.empty() || cellPixels < 6) return;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(kComputeEdge, 1));
    painter.setBrush(kComputeColor);
    for (int rank : ranks) {
        int cell = layout.cellOfRank(rank);
        if (cell < 0) continue;
        QRectF box = toDevice.mapRect(layout.cells()[static_cast<size_t>(cell)].rect);
        QRectF mark = computeMarkRect(box, cellPixels);
        painter.drawPolygon(computeFlag(mark, mark.width()));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setRenderHint(QPainter::Antialiasing, false);
}

QColor MeshCanvas::faultColor() {
    return QColor(0xd6, 0x27, 0x28);
}

// A red square near the bottom-left corner, inside the cell: the compute
// flag holds the top-right one and the outlines the edges, and a mark on
// the corner itself sat between four cells. At least 3 pixels, so a fault
// on a 128 x 128 mesh fitted in a dock still shows.
QRectF MeshCanvas::faultMarkRect(const QRectF& cellBox, double cellPixels) {
    const double side = std::clamp(cellPixels * 0.3, 3.0, 16.0);
    const double inset = cellPixels >= 12 ? std::clamp(cellPixels * 0.12, 2.0, 10.0) : 0.0;
    return QRectF(cellBox.left() + inset, cellBox.bottom() - inset - side, side, side);
}

void MeshCanvas::paintFaultMarks(QPainter& painter, const QTransform& toDevice,
                                 double cellPixels) const {
    if (faults_.isEmpty()) return;
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int rank : faults_.ranks) {
        const int cell = layout_.cellOfRank(rank);
        if (cell < 0) continue;
        const QRectF mark = faultMarkRect(
            toDevice.mapRect(layout_.cells()[static_cast<size_t>(cell)].rect), cellPixels);
        painter.fillRect(mark, faultColor());
        if (mark.width() >= 9) {  // a white ✗ on it where there is room
            painter.setPen(QPen(Qt::white, 1.5));
            painter.drawLine(mark.adjusted(2, 2, -2, -2).topLeft(),
                             mark.adjusted(2, 2, -2, -2).bottomRight());
            painter.drawLine(mark.adjusted(2, 2, -2, -2).bottomLeft(),
                             mark.adjusted(2, 2, -2, -2).topRight());
        }
    }
}

double MeshCanvas::paintFaultLegend(QPainter& painter, const QRectF& area, double y) const {
    if (faults_.isEmpty()) return y;
    painter.fillRect(QRectF(area.left() + 1, y, 12, 12), faultColor());
    painter.setPen(palette().color(QPalette::Text));
    const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    const QRectF box = painter.boundingRect(
        QRectF(area.left() + 22, y - 2, area.width() - 22, area.height()), flags, faults_.label);
    painter.drawText(box, flags, faults_.label);
    return box.bottom() + 6;
}

// Cells too small for an outline inside each: every rank set is outlined
// as a whole, along the edges of its cells that border cells outside it,
// at least kMinOutlineWidth pixels wide whatever the zoom. Outer sets stand
// further out, so nested ones (the owner inside its shard group) stay apart.
void MeshCanvas::paintSetOutlines(QPainter& painter, const QTransform& toDevice,
                                  const MeshLayout& layout, const SelectionOverlay& overlay) const {
    painter.setRenderHint(QPainter::Antialiasing, false);
    std::vector<OverlayStyle> styles;
    for (const OverlayStyle& style : overlayStyles(overlay))
        if (!style.ranks->empty()) styles.push_back(style);
    const size_t cells = layout.cells().size();
    std::vector<char> inSet(cells);
    for (size_t s = 0; s < styles.size(); ++s) {
        std::fill(inSet.begin(), inSet.end(), 0);
        for (int rank : *styles[s].ranks)
            if (int cell = layout.cellOfRank(rank); cell >= 0) inSet[static_cast<size_t>(cell)] = 1;
        // The innermost set sits on its cells' edge, each one further out a
        // width beyond the one inside it.
        const double offset = static_cast<double>(styles.size() - 1 - s) * kMinOutlineWidth;
        for (size_t c = 0; c < cells; ++c)
            if (inSet[c])
                paintCellBorder(painter, toDevice, layout, inSet, c, kMinOutlineWidth, offset,
                                styles[s].color);
    }
}

QColor MeshCanvas::nodeColor() {
    return QColor(0x26, 0x32, 0x38);
}

// Every node of the chosen cluster outlined: a line on each cell side whose
// neighbour runs on another node, and around the panel's edge. A cell's right
// and bottom sides are drawn by it, its left and top by the neighbour there,
// so each line is drawn once.
void MeshCanvas::paintNodeBoundaries(QPainter& painter, const QTransform& toDevice,
                                     const QRectF& visible, double cellPixels) const {
    if (!showsNodes() || cellPixels < kMinNodeCellPixels) return;
    painter.setRenderHint(QPainter::Antialiasing, false);
    const double width = cellPixels >= kCellOutlinePixels ? 3.0 : 2.0, h = width / 2;
    const QColor color = nodeColor();
    const auto& cells = layout_.cells();
    auto otherNode = [&](size_t c, int dr, int dc, int node) {
        int n = layout_.neighbour(static_cast<int>(c), dr, dc);
        return n < 0 || nodes_.nodeOf(cells[static_cast<size_t>(n)].rank) != node;
    };
    for (size_t c = 0; c < cells.size(); ++c) {
        if (!visible.intersects(cells[c].rect)) continue;
        const int node = nodes_.nodeOf(cells[c].rank);
        const QRectF box = QRectF(toDevice.mapRect(cells[c].rect).toRect());
        if (otherNode(c, 0, 1, node))
            painter.fillRect(QRectF(box.right() - h, box.top() - h, width, box.height() + width),
                             color);
        if (otherNode(c, 1, 0, node))
            painter.fillRect(QRectF(box.left() - h, box.bottom() - h, box.width() + width, width),
                             color);
        if (layout_.neighbour(static_cast<int>(c), 0, -1) < 0)
            painter.fillRect(QRectF(box.left() - h, box.top() - h, width, box.height() + width),
                             color);
        if (layout_.neighbour(static_cast<int>(c), -1, 0) < 0)
            painter.fillRect(QRectF(box.left() - h, box.top() - h, box.width() + width, width),
                             color);
    }
}

// The sides of cell `c` whose neighbour (in the same panel) is not in the set.
void MeshCanvas::paintCellBorder(QPainter& painter, const QTransform& toDevice,
                                 const MeshLayout& layout, const std::vector<char>& inSet, size_t c,
                                 double width, double offset, const QColor& color) const {
    const MeshCell& cell = layout.cells()[c];
    // On whole pixels: fills at fractional edges round to one pixel or three.
    const QRectF box = QRectF(toDevice.mapRect(cell.rect).toRect());
    // The neighbour in the same panel: a wrapped segment's last column is
    // outlined even though the next segment continues the dim.
    auto outside = [&](int dx, int dy) {
        int n = layout.neighbour(static_cast<int>(c), dy, dx);
        return n < 0 || !inSet[static_cast<size_t>(n)];
    };
    const double out = offset + width;  // from the cell edge outwards
    if (outside(0, -1))
        painter.fillRect(QRectF(box.left() - out, box.top() - out, box.width() + 2 * out, width),
                         color);
    if (outside(0, 1))
        painter.fillRect(
            QRectF(box.left() - out, box.bottom() + offset, box.width() + 2 * out, width), color);
    if (outside(-1, 0))
        painter.fillRect(QRectF(box.left() - out, box.top() - out, width, box.height() + 2 * out),
                         color);
    if (outside(1, 0))
        painter.fillRect(
            QRectF(box.right() + offset, box.top() - out, width, box.height() + 2 * out), color);
}

void MeshCanvas::paintPanelTitles(QPainter& painter, const QTransform& toDevice,
                                  const MeshLayout& layout) const {
    double titlePixels = MeshLayout::kTitleHeight * toDevice.m11();
    if (titlePixels < 10 || layout.panels().size() < 2) return;
    QFont font = painter.font();
    font.setPixelSize(std::clamp(static_cast<int>(titlePixels * 0.6), 8, 14));
    painter.setFont(font);
    painter.setPen(palette().color(QPalette::Text));
    for (const MeshPanel& panel : layout.panels()) {
        QRectF area = toDevice.mapRect(panel.rect);
        QRectF title(area.left(), area.top() - titlePixels, area.width(), titlePixels);
        painter.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, panel.title);
    }
}

double MeshCanvas::paintLegend(QPainter& painter, const QSize& size, double cellPixels) const {
    QRectF area(size.width() - kLegendWidth + 16, 16, kLegendWidth - 28, size.height() - 32);
    QFont font = painter.font();
    font.setPixelSize(11);
    font.setBold(false);
    painter.setFont(font);
    painter.setPen(palette().color(QPalette::Text));
    const bool overview = level() == Level::Overview;
    const double barBottom =
        paintHeatBar(painter, area, overview ? blockHeat_ : heat_, heatTitle());
    QRectF idle(area.left(), barBottom + 12, 16, 12);
    painter.fillRect(idle, HeatScale::idleColor());
    painter.drawText(QRectF(idle.right() + 6, idle.top() - 2, area.width() - 22, 16),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("computes nothing"));
    double y = idle.bottom() + 20;
    for (const OverlayStyle& style : overlayStyles(overlay_)) {
        if (style.ranks->empty()) continue;
        painter.setPen(QPen(style.color, 3));
        painter.drawRect(QRectF(area.left() + 1, y + 1, 14, 10));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRectF(area.left() + 22, y - 2, area.width() - 22, 16),
                         Qt::AlignLeft | Qt::AlignVCenter, tr(style.label));
        y += 18;
    }
    y = paintNodeLegend(painter, area, y, cellPixels);
    if (!overview) y = paintFaultLegend(painter, area, y);
    if (!overlay_.computeRanks.empty()) {
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(kComputeEdge, 1));
        painter.setBrush(kComputeColor);
        painter.drawPolygon(computeFlag(QRectF(area.left() + 1, y, 14, 14), 14));
        painter.setBrush(Qt::NoBrush);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setPen(palette().color(QPalette::Text));
        // Two lines when one does not fit the legend's width.
        const QString text = tr("runs Newton–Schulz");
        const bool wraps = painter.fontMetrics().horizontalAdvance(text) > area.width() - 22;
        painter.drawText(QRectF(area.left() + 22, y - 2, area.width() - 22, wraps ? 32 : 16),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
        y += wraps ? 34 : 18;
    }
    if (overview) y = paintWorstLegend(painter, area, y);
    if (level() == Level::Zoomed) {
        const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
        const QString text = tr("zoomed in on %1: Backspace or wheel out for the overview")
                                 .arg(window_.text(*mesh()));
        const QRectF box = painter.boundingRect(
            QRectF(area.left(), y + 4, area.width(), area.height()), flags, text);
        painter.drawText(box, flags, text);
        y = box.bottom() + 4;
    }
    paintFocusName(painter, QRectF(area.left(), y + 8, area.width(), area.bottom() - y - 8));
    return y;
}

// A logarithmic scale says so (the teaching sample's is linear, the tour's
// log, and the ticks alone did not tell).
QString MeshCanvas::heatTitle() const {
    if (level() == Level::Overview)
        return tr("Newton–Schulz numel, %1 of a block (log)").arg(blockStatisticName(statistic_));
    return heat_.isLogarithmic() ? tr("Newton–Schulz numel (log)") : tr("Newton–Schulz numel");
}

QString MeshCanvas::nodeLegendText(double cellPixels) const {
    if (!showsNodes()) return {};
    if (cellPixels < kMinNodeCellPixels)
        return tr("nodes of %1 ranks (%2): zoom in to see them")
            .arg(nodes_.devicesPerNode)
            .arg(nodes_.clusterName);
    // A world smaller than a node: "node, 8 ranks" on a 4-rank mesh read as
    // ranks the mesh does not have.
    const int world = result_.isValid() ? result_.plan->worldSize : nodes_.devicesPerNode;
    if (world < nodes_.devicesPerNode)
        return tr("node of %1 devices (%2): the %3 ranks on one")
            .arg(nodes_.devicesPerNode)
            .arg(nodes_.clusterName)
            .arg(world);
    return tr("node, %1 ranks (%2)").arg(nodes_.devicesPerNode).arg(nodes_.clusterName);
}

// The nodes' legend line beside a sample of the boundary line; returns the next line's y.
double MeshCanvas::paintNodeLegend(QPainter& painter, const QRectF& area, double y,
                                   double cellPixels) const {
    if (!showsNodes()) return y;
    painter.fillRect(QRectF(area.left() + 1, y + 4, 14, 3), nodeColor());
    const QString text = nodeLegendText(cellPixels);
    painter.setPen(palette().color(QPalette::Text));
    const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    const QRectF box = painter.boundingRect(
        QRectF(area.left() + 22, y - 2, area.width() - 22, area.height()), flags, text);
    painter.drawText(box, flags, text);
    return box.bottom() + 4;
}

// The focused param's name under the legend, wrapped, so a screenshot says what is outlined.
void MeshCanvas::paintFocusName(QPainter& painter, const QRectF& area) const {
    int param = selection_ ? selection_->focusParamFor(result_) : -1;
    if (param < 0 || !result_.scenario || area.height() < 30) return;
    QString name =
        QString::fromStdString(result_.scenario->params.at(static_cast<size_t>(param)).name);
    name.replace(QLatin1Char('.'), QStringLiteral(".\u200b"));  // allow breaks after dots
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                     tr("selected:\n") + name);
}

void MeshCanvas::paintEmpty(QPainter& painter, const QSize& size) const {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(QPoint(), size), Qt::AlignCenter,
                     tr("Open a scenario (File ▸ Open, or drop a file here)"));
}

}  // namespace hsdp
