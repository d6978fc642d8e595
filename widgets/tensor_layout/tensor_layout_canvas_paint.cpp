// SPDX-License-Identifier: Apache-2.0
// TensorLayoutCanvas's painting: title, blocks with rank labels, index
// axes, outlines, legend. Blocks are filled without antialiasing so each
// block's pixels are exactly its shard colour.
#include <QFontMetricsF>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <set>

#include "derived/plan/plan_tree_rows.h"
#include "tensor_layout/tensor_block_text.h"
#include "tensor_layout/tensor_layout_canvas.h"

namespace hsdp {

namespace {

constexpr int kLegendEntries = 10;  // shard coordinates listed before "… more"
// Labels keep clear of the block's edges, where the outlines are: the left
// and right margins show the block's own colour (tests probe them).
constexpr double kLabelPadding = 12.0;

// An outline inside `box`, as four fills (wide pens stroke slowly).
void fillOutline(QPainter& painter, const QRectF& box, double inset, double width,
                 const QColor& color) {
    QRectF o = box.adjusted(inset, inset, -inset, -inset);
    if (o.width() < 2 * width || o.height() < 2 * width) return;
    painter.fillRect(QRectF(o.left(), o.top(), o.width(), width), color);
    painter.fillRect(QRectF(o.left(), o.bottom() - width, o.width(), width), color);
    painter.fillRect(QRectF(o.left(), o.top(), width, o.height()), color);
    painter.fillRect(QRectF(o.right() - width, o.top(), width, o.height()), color);
}

QFont pixelFont(const QFont& base, int pixels, bool bold = false) {
    QFont font = base;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

// Draws `text` wrapped into `area`; returns the height used.
double drawWrapped(QPainter& painter, const QRectF& area, const QString& text) {
    QRectF used = painter.boundingRect(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    painter.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    return used.height();
}

}  // namespace

QColor TensorLayoutCanvas::fillOf(const TensorBlock& block) const {
    if (block.groups.size() == 1) return shardColor(block.groups.front());
    return mergedColor();  // nobody (never for a valid layout) or a merged band
}

bool TensorLayoutCanvas::isPicked(const TensorBlock& block, const std::vector<int>& picked) const {
    if (picked.empty()) return false;
    for (int g : block.groups)
        for (int rank : blocks_.groups[static_cast<size_t>(g)].ranks)
            if (std::binary_search(picked.begin(), picked.end(), rank)) return true;
    return false;
}

void TensorLayoutCanvas::paint(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(QPoint(), size), palette().color(QPalette::Base));
    const QRectF full(0, 0, size.width(), size.height());
    if (!result_.isValid() || blocks_.param < 0)
        return paintMessage(painter, full, tr("Select a parameter to see its layout"));
    const double top = titleHeight(size);
    paintTitle(painter, QRectF(12, 8, size.width() - 24, top - 8), isNarrow(size));
    QRectF below(12, top, size.width() - 24, size.height() - top);
    if (!blocks_.error.empty())
        return paintMessage(painter, below,
                            tr("The engine cannot lay this param out: %1")
                                .arg(QString::fromStdString(blocks_.error)));
    if (blocks_.blocks.empty())  // a dim of size 0: no index to hold
        return paintMessage(painter, below, tr("This tensor has no elements"));
    TensorGrid g = grid(size);
    paintBlocks(painter, g);
    paintWrongRows(painter, g);
    paintAxes(painter, g);
    paintLegend(painter, g.legend, isNarrow(size));
}

// Name; shape, dtype, mesh and placements (two lines when narrow); the dims shown.
void TensorLayoutCanvas::paintTitle(QPainter& painter, const QRectF& area, bool narrow) const {
    const ParamSpec& spec = result_.scenario->params[static_cast<size_t>(blocks_.param)];
    painter.setPen(palette().color(QPalette::Text));
    painter.setFont(pixelFont(painter.font(), 15, true));
    QFontMetricsF bold(painter.font());
    painter.drawText(
        QRectF(area.left(), area.top(), area.width(), 20), Qt::AlignLeft,
        bold.elidedText(QString::fromStdString(spec.name), Qt::ElideMiddle, area.width()));
    QStringList lines{tr("%1 · %2").arg(
        shapeListText(spec.shape), QString::fromStdString(std::string(dtypeName(spec.dtype))))};
    if (spec.isDTensor()) {
        QString mesh = tr("mesh %1").arg(QString::fromStdString(spec.mesh));
        QString placements = pytorchPlacements(*spec.placements);
        if (narrow)
            lines << lines.takeFirst() + QStringLiteral(" · ") + mesh << placements;
        else
            lines[0] += QStringLiteral(" · ") + mesh + QStringLiteral(" · ") + placements;
    } else {
        lines[0] += tr(" · plain tensor (not a DTensor)");
    }
    QString axes = tr("rows: %1 · columns: %2")
                       .arg(dimText(blocks_.axes.rowDim, spec.shape),
                            dimText(blocks_.axes.colDim, spec.shape));
    for (size_t d = 0; d < spec.shape.size(); ++d)
        if (static_cast<int>(d) != blocks_.axes.rowDim &&
            static_cast<int>(d) != blocks_.axes.colDim)
            axes += tr(" · dim %1 at index %2").arg(d).arg(blocks_.axes.slice[d]);
    painter.setFont(pixelFont(painter.font(), 12));
    QFontMetricsF metrics(painter.font());
    double y = area.top() + 22;
    for (const QString& line : lines) {
        painter.drawText(QRectF(area.left(), y, area.width(), 16), Qt::AlignLeft,
                         metrics.elidedText(line, Qt::ElideRight, area.width()));
        y += 17;
    }
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRectF(area.left(), y, area.width(), 16), Qt::AlignLeft,
                     metrics.elidedText(axes, Qt::ElideRight, area.width()));
}

void TensorLayoutCanvas::paintBlocks(QPainter& painter, const TensorGrid& grid) const {
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QColor background = palette().color(QPalette::Base);
    std::vector<int> picked = selection_ ? selection_->ranks() : std::vector<int>{};
    std::sort(picked.begin(), picked.end());
    for (const TensorBlock& block : blocks_.blocks) {
        QRectF rect = grid.rectOf(block);
        // A gap between blocks while they are large enough to spare one.
        double gap = std::min(rect.width(), rect.height()) >= 10 ? 1.0 : 0.0;
        QRectF box = rect.adjusted(gap, gap, -gap, -gap);
        painter.fillRect(box, fillOf(block));
        if (block.hazard) fillOutline(painter, box, kHazardInset, kHazardWidth, hazardColor());
        if (isPicked(block, picked)) fillOutline(painter, box, 0, 2, pickColor());
        paintLabel(painter, block, box);
    }
    painter.setPen(QPen(background.darker(140), 1));
    painter.drawRect(grid.area);
}

// Ranks on the first line, the global index ranges under them, each only if it fits.
void TensorLayoutCanvas::paintLabel(QPainter& painter, const TensorBlock& block,
                                    const QRectF& box) const {
    if (block.groups.empty() || box.height() < 14 || box.width() < 24) return;
    painter.setPen(QColor(0x20, 0x20, 0x28));
    QString ranks = blocks_.plainLocal ? tr("every rank (local)")
                    : block.groups.size() == 1
                        ? ranksText(blocks_.groups[static_cast<size_t>(block.groups[0])].ranks)
                        : tr("%1 ranks (merged)").arg(blocks_.ranksOf(block).size());
    QFont font =
        pixelFont(painter.font(), std::clamp(static_cast<int>(box.height() / 3.2), 10, 18), true);
    QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(ranks) > box.width() - 2 * kLabelPadding) return;
    painter.setFont(font);
    QString range = blockRangeText(blocks_, block);
    QFont small = pixelFont(font, std::max(9, font.pixelSize() - 3));
    bool withRange =
        box.height() >= 2.6 * metrics.height() &&
        QFontMetricsF(small).horizontalAdvance(range) <= box.width() - 2 * kLabelPadding;
    if (!withRange) {
        painter.drawText(box, Qt::AlignCenter, ranks);
        return;
    }
    QPointF centre = box.center();
    painter.drawText(
        QRectF(box.left(), centre.y() - metrics.height(), box.width(), metrics.height()),
        Qt::AlignHCenter | Qt::AlignBottom, ranks);
    painter.setFont(small);
    painter.drawText(QRectF(box.left(), centre.y() + 1, box.width(), metrics.height()),
                     Qt::AlignHCenter | Qt::AlignTop, range);
}

// Index boundaries along both axes, thinned so labels never overlap.
void TensorLayoutCanvas::paintAxes(QPainter& painter, const TensorGrid& grid) const {
    painter.setFont(pixelFont(painter.font(), 10));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    QFontMetricsF metrics(painter.font());
    const size_t last = grid.colEdges.size() - 1;
    auto labelAt = [&](size_t i) {
        QString text = QString::number(blocks_.colCuts[i]);
        double w = metrics.horizontalAdvance(text);
        return std::pair{text, QRectF(grid.colEdges[i] - w / 2, grid.area.top() - 16, w + 2, 14)};
    };
    const double lastLeft = labelAt(last).second.left();
    double nextX = -1e9;
    for (size_t i = 0; i <= last; ++i) {
        auto [text, box] = labelAt(i);
        if (i != last && (box.left() < nextX || box.right() + 6 > lastLeft)) continue;
        painter.drawText(box, Qt::AlignLeft, text);
        nextX = box.right() + 6;
    }
    if (blocks_.axes.rowDim < 0) return;
    // A label every other line at most; the extent (the last edge) always.
    const size_t lastRow = grid.rowEdges.size() - 1;
    const double spacing = 2 * metrics.height();
    double nextY = -1e9;
    for (size_t i = 0; i <= lastRow; ++i) {
        double y = grid.rowEdges[i] - metrics.height() / 2;
        if (i != lastRow && (y < nextY || y + spacing > grid.rowEdges[lastRow])) continue;
        painter.drawText(QRectF(grid.area.left() - 62, y, 56, metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(blocks_.rowCuts[i]));
        nextY = y + spacing;
    }
}

// Notes are set in this size wherever the legend is, so that measuring
// them (narrowLegendHeight) and painting them agree.
constexpr int kNotePixels = 11;
constexpr double kLegendTitle = 22.0, kLegendLine = 17.0, kNoteGap = 8.0;

int TensorLayoutCanvas::coordinatesInSlice() const {
    int inSlice = 0;
    for (const ShardGroup& group : blocks_.groups)
        if (group.inSlice && !group.isEmpty()) ++inSlice;
    return inSlice;
}

int TensorLayoutCanvas::legendEntries() const {
    const int inSlice = coordinatesInSlice();
    return std::min(inSlice, kLegendEntries) + (inSlice > kLegendEntries ? 1 : 0);
}

double TensorLayoutCanvas::notesHeight(double width) const {
    const QFontMetricsF metrics(pixelFont(font(), kNotePixels));
    double height = 0;
    for (const Note& note : notes()) {
        const double indent = note.swatchWidth > 0 ? 20.0 : 0.0;
        const QRectF area(0, 0, std::max(1.0, width - indent), 1e6);
        height +=
            metrics.boundingRect(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, note.text)
                .height() +
            kNoteGap;
    }
    return height;
}

double TensorLayoutCanvas::narrowLegendHeight(double width) const {
    if (blocks_.param < 0 || !result_.isValid()) return 0;
    return notesHeight(width) + 4 + kLegendTitle + kLegendLine * legendEntries();
}

double TensorLayoutCanvas::wideLegendHeight(double width) const {
    if (blocks_.param < 0 || !result_.isValid()) return 0;
    return kLegendTitle + kLegendLine * coordinatesInSlice() + 10 + notesHeight(width);
}

// Wide: the coordinates (every one the height has room for), then the
// notes. Narrow (little height left): the notes first, as the block labels
// already name the ranks, then at most kLegendEntries coordinates.
void TensorLayoutCanvas::paintLegend(QPainter& painter, const QRectF& area, bool narrow) const {
    if (narrow) {
        double y = paintNotes(painter, area);
        paintGroupLegend(painter, QRectF(area.left(), y + 4, area.width(), area.bottom() - y - 4),
                         0, kLegendEntries);
        return;
    }
    double y = paintGroupLegend(painter, area, notesHeight(area.width()), coordinatesInSlice());
    paintNotes(painter, QRectF(area.left(), y + 10, area.width(), area.bottom() - y - 10));
}

// One swatch per shard coordinate in the slice: colour, coordinate, ranks.
double TensorLayoutCanvas::paintGroupLegend(QPainter& painter, const QRectF& area, double reserve,
                                            int most) const {
    const ParamSpec& spec = result_.scenario->params[static_cast<size_t>(blocks_.param)];
    const Mesh* mesh = result_.scenario->findMesh(spec.mesh);
    painter.setPen(palette().color(QPalette::Text));
    painter.setFont(pixelFont(painter.font(), 12, true));
    painter.drawText(QRectF(area.left(), area.top(), area.width(), 16), Qt::AlignLeft,
                     tr("shard coordinate · ranks · local shape"));
    painter.setFont(pixelFont(painter.font(), 11));
    QFontMetricsF metrics(painter.font());
    double y = area.top() + 22;
    // As many entries as leave `reserve` pixels (for the notes) under them.
    const int entries =
        std::clamp(static_cast<int>((area.height() - 22 - reserve) / 17), 1, std::max(1, most));
    int listed = 0, inSlice = 0;
    for (size_t g = 0; g < blocks_.groups.size(); ++g) {
        const ShardGroup& group = blocks_.groups[g];
        if (!group.inSlice || group.isEmpty()) continue;
        if (++inSlice > entries) continue;
        painter.fillRect(QRectF(area.left(), y + 1, 14, 12), shardColor(static_cast<int>(g)));
        QString text = groupCoordText(blocks_, group, mesh) + QStringLiteral(" · ") +
                       ranksText(group.ranks, 3) + QStringLiteral(" · ") +
                       shapeListText(group.layout.localShape());
        painter.drawText(QRectF(area.left() + 20, y - 1, area.width() - 20, 16),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(text, Qt::ElideRight, area.width() - 20));
        y += 17;
        ++listed;
    }
    if (inSlice > listed) {
        painter.drawText(QRectF(area.left() + 20, y - 1, area.width() - 20, 16), Qt::AlignLeft,
                         inSlice - listed == 1 ? tr("… 1 more coordinate")
                                               : tr("… %1 more coordinates").arg(inSlice - listed));
        y += 17;
    }
    return y;
}

// The lines under the coordinates: why pieces have copies, the hazard
// marker, the picked ranks, empty shards, other slices, merging.
std::vector<TensorLayoutCanvas::Note> TensorLayoutCanvas::notes() const {
    std::vector<Note> notes;
    const ParamSpec& spec = result_.scenario->params[static_cast<size_t>(blocks_.param)];
    QString copies = copiesText(blocks_, spec, result_.scenario->findMesh(spec.mesh));
    if (!copies.isEmpty()) notes.push_back({copies});
    if (!blocks_.hazardCodes.empty()) {
        QStringList codes;
        for (const auto& code : blocks_.hazardCodes) codes << hazardText(code);
        notes.push_back(
            {tr("hazard: %1").arg(codes.join(QStringLiteral("; "))), hazardColor(), kHazardWidth});
    }
    if (selection_ && !selection_->ranks().empty())
        notes.push_back({tr("picked: %1").arg(ranksText(selection_->ranks())), pickColor(), 2});
    std::vector<int> empty;
    int otherSlices = 0;
    for (const ShardGroup& group : blocks_.groups) {
        if (group.isEmpty())
            empty.insert(empty.end(), group.ranks.begin(), group.ranks.end());
        else if (!group.inSlice)
            ++otherSlices;
    }
    std::sort(empty.begin(), empty.end());
    if (!empty.empty())
        notes.push_back(
            {tr("empty shard (holds nothing): %1").arg(ranksText(empty, 16, QStringLiteral(", "))),
             {},
             0,
             hazardColor().darker(120)});
    if (otherSlices > 0)
        notes.push_back(
            {tr("%1 more coordinates hold other slices of the dims not shown").arg(otherSlices)});
    addWrongRowsNotes(notes);
    if (blocks_.merged)
        notes.push_back({tr("%1 blocks merged into %2 for drawing: the tooltip lists every "
                            "rank of a merged block")
                             .arg(blocks_.exactBlockCount)
                             .arg(blocks_.blocks.size())});
    return notes;
}

// Each note wrapped, after its outline swatch if it has one; returns the bottom.
double TensorLayoutCanvas::paintNotes(QPainter& painter, const QRectF& area) const {
    painter.setFont(pixelFont(painter.font(), kNotePixels));
    double y = area.top();
    for (const Note& note : notes()) {
        double indent = note.swatchWidth > 0 ? 20.0 : 0.0;
        if (note.swatchWidth > 0)
            fillOutline(painter, QRectF(area.left(), y + 1, 14, 12), 0, note.swatchWidth,
                        note.swatch);
        painter.setPen(note.color.isValid() ? note.color : palette().color(QPalette::Text));
        QRectF text(area.left() + indent, y, area.width() - indent, area.bottom() - y);
        y += drawWrapped(painter, text, note.text) + kNoteGap;
    }
    return y;
}

void TensorLayoutCanvas::paintMessage(QPainter& painter, const QRectF& area,
                                      const QString& text) const {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, text);
}

}  // namespace hsdp
