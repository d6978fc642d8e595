// SPDX-License-Identifier: Apache-2.0
#include "tensor_layout/tensor_layout_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "tensor_layout/tensor_block_text.h"

namespace hsdp {

namespace {

constexpr double kMargin = 12.0;
constexpr double kRowAxisWidth = 64.0;  // row index labels left of the blocks
constexpr double kColAxisHeight = 20.0;

// Pixel edges of the bands between `cuts`: each band gets the floor plus
// its share of the rest by index extent.
std::vector<double> bandEdges(const std::vector<int64_t>& cuts, double start, double length) {
    const size_t bands = cuts.size() - 1;
    const double total = static_cast<double>(cuts.back() - cuts.front());
    const double floor =
        std::min(TensorLayoutCanvas::kMinBandPixels, length / (2.0 * static_cast<double>(bands)));
    const double rest = length - floor * static_cast<double>(bands);
    std::vector<double> edges{start};
    for (size_t i = 0; i < bands; ++i) {
        double share = total > 0 ? static_cast<double>(cuts[i + 1] - cuts[i]) / total
                                 : 1.0 / static_cast<double>(bands);
        edges.push_back(edges.back() + floor + rest * share);
    }
    return edges;
}

constexpr double kMinAspect = 0.3, kMaxAspect = 1.25;
// Between the blocks' right edge and a legend beside them: half of the
// last column label, centred on that edge, and a gap.
constexpr double kLegendGap = 36.0;

double trueRatio(const TensorBlocks& blocks) {
    return static_cast<double>(blocks.rowExtent()) /
           static_cast<double>(std::max<int64_t>(blocks.colExtent(), 1));
}

// Height over width of the blocks' area: the tensor's own proportions while
// they stay readable (a 16:1 embedding would be a hairline), a flat strip
// for a 1-D param. The axes say the true extents.
double aspectOf(const TensorBlocks& blocks) {
    if (blocks.axes.rowDim < 0) return 0.15;
    return std::clamp(trueRatio(blocks), kMinAspect, kMaxAspect);
}

// The blocks' aspect in a free area of `freeAspect` (height over width):
// a tensor too tall or too flat to draw in its own proportions is drawn in
// whatever proportions fill the area best, still as tall as wide or taller
// (a tall one) or flatter (a flat one) and within the readable range, so
// that a slide-sized picture is not mostly blank around it.
double fittedAspect(const TensorBlocks& blocks, double freeAspect) {
    const double own = aspectOf(blocks);
    if (blocks.axes.rowDim < 0) return own;
    const double ratio = trueRatio(blocks);
    if (ratio > kMaxAspect) return std::clamp(freeAspect, 1.0, kMaxAspect);
    if (ratio < kMinAspect) return std::clamp(freeAspect, kMinAspect, 1.0);
    return own;
}

int bandAt(const std::vector<double>& edges, double value) {
    auto it = std::upper_bound(edges.begin(), edges.end(), value);
    if (it == edges.begin() || it == edges.end()) return -1;
    return static_cast<int>(it - edges.begin()) - 1;
}

}  // namespace

QRectF TensorGrid::rectOf(const TensorBlock& block) const {
    auto r = static_cast<size_t>(block.rowBand), c = static_cast<size_t>(block.colBand);
    return QRectF(QPointF(colEdges[c], rowEdges[r]), QPointF(colEdges[c + 1], rowEdges[r + 1]));
}

TensorLayoutCanvas::TensorLayoutCanvas(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    setMouseTracking(true);
    setMinimumSize(320, 240);
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, qOverload<>(&QWidget::update));
}

double TensorGrid::pixelOf(const std::vector<double>& edges, const std::vector<int64_t>& cuts,
                           double index) {
    auto it = std::upper_bound(cuts.begin(), cuts.end(), index);
    if (it == cuts.begin()) return edges.front();
    if (it == cuts.end()) {
        // Past the end (a gathered copy that came out longer): a short strip
        // outside the blocks, so such rows stay visible without covering
        // what lies beyond.
        const double over = index - static_cast<double>(cuts.back());
        return edges.back() + std::min(kOverhangPixels, over > 0 ? kOverhangPixels : 0.0);
    }
    const auto band = static_cast<size_t>(it - cuts.begin()) - 1;
    const double share = (index - static_cast<double>(cuts[band])) /
                         static_cast<double>(cuts[band + 1] - cuts[band]);
    return edges[band] + share * (edges[band + 1] - edges[band]);
}

void TensorLayoutCanvas::setWrongRows(WrongRowOverlay rows) {
    wrongRows_ = std::move(rows);
    updateMinimumHeight();  // the notes under the blocks change
    update();
}

void TensorLayoutCanvas::setBlocks(const PlanResult& result, TensorBlocks blocks) {
    result_ = result;
    blocks_ = std::move(blocks);
    updateMinimumHeight();
    update();
}

void TensorLayoutCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateMinimumHeight();  // the legend wraps differently at another width
}

// Only the height follows the content: the width is the dock's.
void TensorLayoutCanvas::updateMinimumHeight() {
    const int height = contentHeight(width());
    if (height != minimumHeight()) setMinimumHeight(height);
}

int TensorLayoutCanvas::contentHeight(int width) const {
    constexpr int kFloor = 240;
    const QSize size(width, kFloor);
    if (blocks_.blocks.empty() || !result_.isValid()) return kFloor;
    const double freeWidth = std::max(40.0, width - 2 * kMargin - kRowAxisWidth);
    const double blocks = std::min(freeWidth, kMinBlocksWidth) * aspectOf(blocks_);
    double height = titleHeight(size) + kColAxisHeight + blocks + kMargin;
    if (isNarrow(size)) height += 16 + narrowLegendHeight(width - 2 * kMargin);
    return std::max(kFloor, static_cast<int>(std::ceil(height)));
}

QSize TensorLayoutCanvas::fittedSize(const QSize& size) const {
    if (blocks_.blocks.empty() || !result_.isValid()) return size;
    QSize fitted(size.width(), std::max(size.height(), contentHeight(size.width())));
    const TensorGrid g = grid(fitted);
    const double bottom =
        isNarrow(fitted)
            ? g.area.bottom() + 16 + narrowLegendHeight(fitted.width() - 2 * kMargin)
            : std::max(g.area.bottom(), g.legend.top() + wideLegendHeight(g.legend.width()));
    fitted.setHeight(
        std::max(contentHeight(size.width()), static_cast<int>(std::ceil(bottom + kMargin))));
    return fitted;
}

bool TensorLayoutCanvas::isNarrow(const QSize& size) {
    return size.width() < kNarrowWidth;
}

double TensorLayoutCanvas::titleHeight(const QSize& size) {
    return isNarrow(size) ? 82.0 : 64.0;  // narrow: the placements get a line of their own
}

// Wide: blocks left, legend beside them, clear of the last column label
// (which sits centred on the blocks' right edge). Narrow (a docked view):
// legend below.
TensorGrid TensorLayoutCanvas::grid(const QSize& size) const {
    TensorGrid grid;
    if (blocks_.blocks.empty()) return grid;
    const double top = titleHeight(size);
    const bool narrow = isNarrow(size);
    const double legendWidth = narrow ? 0.0 : std::clamp(size.width() * 0.3, 180.0, kLegendWidth);
    double height = size.height() - top - kColAxisHeight - kMargin;
    // Narrow: the blocks take what the legend under them leaves (not a
    // fixed share, which left a 90-pixel sliver in a short dock).
    if (narrow) height -= 16 + narrowLegendHeight(size.width() - 2 * kMargin);
    const double besideLegend = narrow ? 0.0 : legendWidth + kLegendGap - kMargin;
    QRectF free(kMargin + kRowAxisWidth, top + kColAxisHeight,
                std::max(40.0, size.width() - besideLegend - 2 * kMargin - kRowAxisWidth),
                std::max(40.0, height));
    const double aspect =
        narrow ? aspectOf(blocks_) : fittedAspect(blocks_, free.height() / free.width());
    double width = std::min(free.width(), free.height() / aspect);
    grid.area = QRectF(free.left(), free.top(), width, width * aspect);
    if (narrow) {
        grid.legend = QRectF(kMargin, grid.area.bottom() + 16, size.width() - 2 * kMargin,
                             size.height() - grid.area.bottom() - 16 - kMargin);
    } else {  // beside the blocks, not across an empty gap; the two centred
        const double left = grid.area.right() + kLegendGap;
        grid.legend = QRectF(left, top, legendWidth - kMargin, size.height() - top - kMargin);
        const double spare = size.width() - kMargin - grid.legend.right();
        grid.area.translate(spare / 2, 0);
        grid.legend.translate(spare / 2, 0);
    }
    grid.rowEdges = bandEdges(blocks_.rowCuts, grid.area.top(), grid.area.height());
    grid.colEdges = bandEdges(blocks_.colCuts, grid.area.left(), grid.area.width());
    return grid;
}

int TensorLayoutCanvas::blockAt(const QPointF& pos, const QSize& size) const {
    TensorGrid g = grid(size);
    if (g.rowEdges.empty()) return -1;
    int row = bandAt(g.rowEdges, pos.y()), col = bandAt(g.colEdges, pos.x());
    if (row < 0 || col < 0) return -1;
    return row * (static_cast<int>(g.colEdges.size()) - 1) + col;
}

QColor TensorLayoutCanvas::shardColor(int group) {
    // Golden-ratio steps round the hue circle: neighbouring coordinates
    // differ, and pale enough for dark labels.
    double hue = std::fmod(0.58 + 0.618033988749895 * group, 1.0);
    // Through 8-bit RGB, as an image stores it, so painted pixels compare equal.
    return QColor::fromHsvF(static_cast<float>(hue), 0.38f, 0.96f).rgb();
}

QImage TensorLayoutCanvas::renderImage(const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paint(painter, size);
    return image;
}

void TensorLayoutCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paint(painter, size());
}

void TensorLayoutCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (!selection_ || event->button() != Qt::LeftButton) return;
    int block = blockAt(event->position(), size());
    selection_->selectRanks(block < 0
                                ? std::vector<int>{}
                                : blocks_.ranksOf(blocks_.blocks[static_cast<size_t>(block)]));
}

bool TensorLayoutCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    int block = blockAt(help->pos(), size());
    // A wrong-rows band's labels first, in full: the picture may elide or
    // leave out those that do not fit.
    QString text;
    for (const QString& line : wrongRowsTextsAt(help->pos(), size()))
        text += QStringLiteral("<span style='color:%1'><b>%2</b></span><br>")
                    .arg(expectedRowsColor().name(), line.toHtmlEscaped());
    if (block >= 0) text += toolTipFor(blocks_.blocks[static_cast<size_t>(block)]);
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
}

QString TensorLayoutCanvas::toolTipFor(const TensorBlock& block) const {
    const ParamSpec& spec = result_.scenario->params[static_cast<size_t>(blocks_.param)];
    const Mesh* mesh = result_.scenario->findMesh(spec.mesh);
    QString text = tr("<b>global indices %1</b>").arg(blockRangeText(blocks_, block));
    if (blocks_.merged) text += tr("<br><i>merged band: several pieces drawn as one</i>");
    for (int g : block.groups) {
        const ShardGroup& group = blocks_.groups[static_cast<size_t>(g)];
        text += tr("<hr><b>%1</b><br>ranks %2<br>local shape %3<br>holds rows %4<br>"
                   "holds columns %5")
                    .arg(groupCoordText(blocks_, group, mesh).toHtmlEscaped(),
                         ranksText(group.ranks, 16), shapeListText(group.layout.localShape()),
                         rangesText(blocks_.rowSet(group)), rangesText(blocks_.colSet(group)));
    }
    if (block.hazard) {
        QStringList codes;
        for (const auto& code : blocks_.hazardCodes) codes << QString::fromStdString(code);
        text += tr("<hr><span style='color:%1'>hazard: %2</span>")
                    .arg(hazardColor().name(), codes.join(QStringLiteral(", ")));
    }
    return text;
}

}  // namespace hsdp
