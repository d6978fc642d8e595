// SPDX-License-Identifier: Apache-2.0
// MeshCanvas's overview of a large mesh: one cell per block (MeshBlocks),
// filled from images made when the result or the statistic was set (one
// pixel per block), the selection outlined as blocks, the worst blocks
// marked; and the minimap, the rubber band and the legend's heat bar and
// worst-block list that both levels share. Every step here is O(blocks) or
// less, never O(ranks).
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cstdint>

#include "mesh/mesh_canvas.h"
#include "mesh/mesh_paint_style.h"

namespace hsdp {

using namespace mesh_paint;

namespace {

constexpr double kMinimapWidth = 190.0, kMinimapHeight = 130.0;

const int kTextFlags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;

// The legend's numbers: "65.5 M", and ratios as "2.4".
QString legendNumber(double value) {
    return value < 100 && value != std::floor(value) ? QString::number(value, 'g', 3)
                                                     : humanCount(value);
}

// Wrapped text at `y`; returns the next line's y.
double drawWrapped(QPainter& painter, const QRectF& area, double y, const QString& text) {
    const QRectF box =
        painter.boundingRect(QRectF(area.left(), y, area.width(), area.height()), kTextFlags, text);
    painter.drawText(box, kTextFlags, text);
    return box.bottom() + 6;
}

}  // namespace

void MeshCanvas::paintOverview(QPainter& painter, const QSize& size,
                               const QTransform& toDevice) const {
    const QRectF cellArea(0, 0, std::max(0.0, size.width() - kLegendWidth), size.height());
    painter.save();
    painter.setClipRect(cellArea);
    const double blockPixels = MeshLayout::kCellSize * toDevice.m11();
    const double gap = blockPixels >= 6 ? std::clamp(blockPixels * 0.04, 1.0, 3.0) : 0.0;
    paintBlockImages(painter, toDevice, gap);
    // The rings first: the selection's outlines hug their blocks inside them.
    paintWorstBlocks(painter, toDevice);
    paintOwnerCrosshair(painter, toDevice, blockPixels);
    const std::vector<int>& computes = blockOverlay_.computeRanks;
    if (blockPixels < kCellOutlinePixels)
        paintComputeMarks(painter, toDevice, blockPixels, blockLayout_, computes);
    paintOverlays(painter, toDevice, blockPixels, blockLayout_, blockOverlay_);
    if (blockPixels >= kCellOutlinePixels)
        paintComputeMarks(painter, toDevice, blockPixels, blockLayout_, computes);
    paintPanelTitles(painter, toDevice, blockLayout_);
    if (toDevice.m11() > fitTransform(size).m11() * 1.001)
        paintMinimap(painter, cellArea, toDevice);
    paintBand(painter);
    painter.restore();
    paintLegend(painter, size, 0.0);
}

// Each panel's image scaled up without smoothing, so every block's pixels
// are exactly its colour, then the gaps as lines (O(rows + columns)).
void MeshCanvas::paintBlockImages(QPainter& painter, const QTransform& toDevice, double gap) const {
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    const QColor background = palette().color(QPalette::Base);
    const auto& panels = blockLayout_.panels();
    for (size_t p = 0; p < panels.size() && p < blockImages_.size(); ++p) {
        const QRectF target = toDevice.mapRect(panels[p].rect);
        painter.drawImage(target, blockImages_[p]);
        if (gap <= 0) continue;
        const auto columns = static_cast<int>(panels[p].cols);
        const auto rows = static_cast<int>(panels[p].rows);
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

QColor MeshCanvas::worstColor() {
    return QColor(0xd0, 0x10, 0x10);
}

// The worst blocks: a ring a few pixels outside the block (clear of the
// selection's outlines, which hug it) and a numbered tag at its top right.
void MeshCanvas::paintWorstBlocks(QPainter& painter, const QTransform& toDevice) const {
    painter.setRenderHint(QPainter::Antialiasing, false);
    QFont font = painter.font();
    font.setPixelSize(10);
    font.setBold(true);
    painter.setFont(font);
    std::vector<QRectF> tags;
    for (size_t i = 0; i < worst_.size(); ++i) {
        const int cell = blockLayout_.cellOfRank(worst_[i]);
        if (cell < 0) continue;
        const QRectF box =
            QRectF(toDevice.mapRect(blockLayout_.cells()[static_cast<size_t>(cell)].rect).toRect());
        const double ring = std::max(8.0, box.width() * 0.15);
        fillOutline(painter, box.adjusted(-ring, -ring, ring, ring), 2.0, worstColor());
        // Neighbouring worst blocks (the planner fills owners in order) share
        // one corner: a tag that would cover an earlier one is left out.
        QRectF tag(box.right() + ring - 1, box.top() - ring - 12, 12, 12);
        if (tag.top() < 0) tag.moveTop(box.bottom() + ring);  // the grid's top row: below

        if (std::any_of(tags.begin(), tags.end(),
                        [&](const QRectF& t) { return t.intersects(tag); }))
            continue;
        tags.push_back(tag);
        painter.fillRect(tag, worstColor());
        painter.setPen(Qt::white);
        painter.drawText(tag, Qt::AlignCenter, QString::number(i + 1));
    }
}

// Blocks of a few pixels: thin lines along the owner blocks' row and column
// across their panel lead the eye to them (a 7 px block is easy to miss).
void MeshCanvas::paintOwnerCrosshair(QPainter& painter, const QTransform& toDevice,
                                     double blockPixels) const {
    const std::vector<int>& owners = blockOverlay_.ownerRanks;
    if (owners.empty() || owners.size() > 4 || blockPixels >= kCellOutlinePixels) return;
    const auto& panels = blockLayout_.panels();
    QColor line = kOwnerColor;
    line.setAlpha(150);
    for (int block : owners) {
        const int cell = blockLayout_.cellOfRank(block);
        if (cell < 0) continue;
        auto after =
            std::upper_bound(panels.begin(), panels.end(), static_cast<size_t>(cell),
                             [](size_t c, const MeshPanel& panel) { return c < panel.firstCell; });
        const QRectF area = toDevice.mapRect(std::prev(after)->rect);
        const QRectF box = toDevice.mapRect(blockLayout_.cells()[static_cast<size_t>(cell)].rect);
        const double clear = 6 + 2 * kMinOutlineWidth * 3;  // past the set outlines
        const double cx = std::round(box.center().x()), cy = std::round(box.center().y());
        auto fill = [&](const QRectF& r) {
            if (r.width() > 0 && r.height() > 0) painter.fillRect(r, line);
        };
        fill(QRectF(area.left(), cy, box.left() - clear - area.left(), 1));
        fill(QRectF(box.right() + clear, cy, area.right() - box.right() - clear, 1));
        fill(QRectF(cx, area.top(), 1, box.top() - clear - area.top()));
        fill(QRectF(cx, box.bottom() + clear, 1, area.bottom() - box.bottom() - clear));
    }
}

QRectF MeshCanvas::minimapRect(const QSize& size, const QTransform& toDevice) const {
    const QRectF bounds = blockLayout_.bounds();
    if (bounds.isEmpty() || blockImages_.empty()) return {};
    const QRectF cellArea(0, 0, std::max(0.0, size.width() - kLegendWidth), size.height());
    const double scale = std::min(kMinimapWidth / bounds.width(), kMinimapHeight / bounds.height());
    const double w = bounds.width() * scale, h = bounds.height() * scale;
    // The selection's cells on screen: the minimap must not hide them.
    const bool overview = level() == Level::Overview;
    const MeshLayout& layout = overview ? blockLayout_ : layout_;
    const SelectionOverlay& overlay = overview ? blockOverlay_ : overlay_;
    std::vector<QRectF> marked;
    for (const std::vector<int>* ranks :
         {&overlay.ownerRanks, &overlay.computeRanks, &overlay.replicateGroup, &overlay.shardGroup,
          &overlay.tpRanks, &overlay.groupRanks, &overlay.pickedRanks})
        for (int rank : *ranks) {
            const int cell = layout.cellOfRank(rank);
            if (cell < 0) continue;
            const QRectF box =
                toDevice.mapRect(layout.cells()[static_cast<size_t>(cell)].rect) & cellArea;
            if (!box.isEmpty()) marked.push_back(box);
        }
    const double m = 12;
    const QRectF corners[] = {
        {cellArea.left() + m, cellArea.bottom() - m - h, w, h},
        {cellArea.right() - m - w, cellArea.bottom() - m - h, w, h},
        {cellArea.right() - m - w, cellArea.top() + m, w, h},
        {cellArea.left() + m, cellArea.top() + m, w, h},
    };
    QRectF best;
    size_t fewest = SIZE_MAX;
    for (const QRectF& corner : corners) {
        const QRectF framed = corner.adjusted(-5, -5, 5, 5);
        const size_t covered = static_cast<size_t>(std::count_if(
            marked.begin(), marked.end(), [&](const QRectF& r) { return r.intersects(framed); }));
        if (covered < fewest) fewest = covered, best = corner;
        if (covered == 0) break;
    }
    return best;
}

// The overview in small at a corner of the cell area (minimapRect: not over
// the selection), the part on screen (zoomed overview) or the window's
// blocks (zoomed in) outlined on it.
void MeshCanvas::paintMinimap(QPainter& painter, const QRectF& cellArea,
                              const QTransform& toDevice) const {
    const QRectF bounds = blockLayout_.bounds();
    if (bounds.isEmpty() || blockImages_.empty()) return;
    const double scale = std::min(kMinimapWidth / bounds.width(), kMinimapHeight / bounds.height());
    const QRectF inset =
        minimapRect(QSize(int(cellArea.width() + kLegendWidth), int(cellArea.height())), toDevice);
    const QTransform toInset = QTransform::fromTranslate(-bounds.left(), -bounds.top()) *
                               QTransform::fromScale(scale, scale) *
                               QTransform::fromTranslate(inset.left(), inset.top());
    painter.fillRect(inset.adjusted(-4, -4, 4, 4), palette().color(QPalette::Base));
    fillOutline(painter, inset.adjusted(-4, -4, 4, 4), 1.0, palette().color(QPalette::Mid));
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    const auto& panels = blockLayout_.panels();
    for (size_t p = 0; p < panels.size() && p < blockImages_.size(); ++p)
        painter.drawImage(toInset.mapRect(panels[p].rect), blockImages_[p]);
    std::vector<QRectF> shown;
    if (level() == Level::Overview) {
        shown.push_back(toDevice.inverted().mapRect(cellArea) & bounds);
    } else {
        // The window's blocks, one rectangle per panel they fall in.
        std::vector<QRectF> byPanel(panels.size());
        for (int block : blocksIn(blocks_, window_)) {
            const int cell = blockLayout_.cellOfRank(block);
            if (cell < 0) continue;
            auto after = std::upper_bound(
                panels.begin(), panels.end(), static_cast<size_t>(cell),
                [](size_t c, const MeshPanel& panel) { return c < panel.firstCell; });
            const auto p = static_cast<size_t>(std::prev(after) - panels.begin());
            byPanel[p] |= blockLayout_.cells()[static_cast<size_t>(cell)].rect;
        }
        for (const QRectF& rect : byPanel)
            if (!rect.isEmpty()) shown.push_back(rect);
    }
    for (const QRectF& rect : shown) {
        const QRectF box = toInset.mapRect(rect).adjusted(-1, -1, 1, 1);
        fillOutline(painter, box.adjusted(-1, -1, 1, 1), 1.0, Qt::white);
        fillOutline(painter, box, 2.0, kPickColor);
    }
}

void MeshCanvas::paintBand(QPainter& painter) const {
    if (!banding_ || !dragging_) return;
    const QRectF band = QRectF(dragStart_, bandEnd_).normalized();
    painter.fillRect(band, QColor(0x11, 0x11, 0x11, 40));
    fillOutline(painter, band, 1.0, kPickColor);
}

// The colour ramp with its title above and three values beside; returns the
// bar's bottom. A logarithmic scale shows the part of the ramp it uses.
double MeshCanvas::paintHeatBar(QPainter& painter, const QRectF& area, const HeatScale& scale,
                                const QString& title) const {
    painter.setPen(palette().color(QPalette::Text));
    const double top = drawWrapped(painter, area, area.top(), title);
    const double lo = scale.isLogarithmic() ? HeatScale::kLogStart : 0.0;
    // A title of more than a line takes its extra height from the bar.
    const double extra = std::max(0.0, top - area.top() - 24);
    const QRectF bar(area.left(), top, 16, std::min(180.0, area.height() * 0.45) - extra);
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 8; ++i)
        gradient.setColorAt(i / 8.0, HeatScale::ramp(lo + (1 - lo) * i / 8.0));
    painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(bar);
    painter.setPen(palette().color(QPalette::Text));
    for (int i = 0; i <= 2; ++i) {
        const double y = bar.bottom() - bar.height() * i / 2.0;
        painter.drawText(QRectF(bar.right() + 6, y - 8, area.width() - 22, 16),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         legendNumber(scale.valueAt(lo + (1 - lo) * i / 2.0)));
    }
    return bar.bottom();
}

// What the cells are and how to move, then the worst blocks by number,
// position on the block grid and statistic; returns the next line's y.
double MeshCanvas::paintWorstLegend(QPainter& painter, const QRectF& area, double y) const {
    painter.setPen(palette().color(QPalette::Text));
    y = drawWrapped(painter, area, y + 4,
                    blocks_.description() + tr(": wheel, Shift+drag or double-click zooms in"));
    if (worst_.empty()) return y;
    QStringList dims;
    for (const std::string& name : blocks_.blockMesh().dimNames)
        dims << QString::fromStdString(name);
    y = drawWrapped(painter, area, y,
                    tr("worst blocks by %1 (%2):")
                        .arg(blockStatisticName(statistic_), dims.join(QStringLiteral(", "))));
    for (size_t i = 0; i < worst_.size(); ++i) {
        const Coord g = blocks_.gridCoord(worst_[i]);
        QStringList at;
        for (int d : blocks_.gridDims()) at << QString::number(g[static_cast<size_t>(d)]);
        const QRectF tag(area.left() + 1, y + 1, 12, 12);
        painter.fillRect(tag, worstColor());
        QFont bold = painter.font();
        bold.setBold(true);
        painter.save();
        painter.setFont(bold);
        painter.setPen(Qt::white);
        painter.drawText(tag, Qt::AlignCenter, QString::number(i + 1));
        painter.restore();
        const QString text = QStringLiteral("(%1) %2").arg(
            at.join(QLatin1Char(',')), legendNumber(blocks_.statistic(worst_[i], statistic_)));
        painter.drawText(QRectF(area.left() + 18, y - 1, area.width() - 18, 16),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        y += 17;
    }
    return y + 4;
}

}  // namespace hsdp
