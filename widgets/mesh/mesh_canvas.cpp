// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_canvas.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "derived/plan/plan_index.h"

namespace hsdp {

MeshCanvas::MeshCanvas(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    setMouseTracking(true);
    setMinimumSize(200, 150);
    setFocusPolicy(Qt::StrongFocus);
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, &MeshCanvas::onSelectionChanged);
}

namespace {

// Loads that span a decade or more (a 1-D param's owner beside matrix
// owners; a 131,072-rank mesh's embedding owner beside thousands of 2-4 M
// ranks) colour on a logarithmic scale: linear, the light ones are near
// white and read as "computes nothing" (a new user did).
constexpr double kLogarithmicSpan = 10;

HeatScale heatScaleOf(const PlanResult& result) {
    if (!result.index) return HeatScale(0);
    const int64_t top = result.index->maxComputedNumel;
    int64_t floor = top;
    for (int64_t v : result.index->computedNumel)
        if (v > 0) floor = std::min(floor, v);
    const bool large = result.plan && result.plan->worldSize > MeshBlocks::kMaxRankCells;
    if (floor > 0 && (large || double(top) >= kLogarithmicSpan * double(floor)))
        return HeatScale::logarithmic(double(floor), double(top));
    return HeatScale(top);
}

}  // namespace

void MeshCanvas::setResult(const PlanResult& result) {
    QString previousMesh = mesh() ? QString::fromStdString(mesh()->name) : QString();
    result_ = result;
    heat_ = heatScaleOf(result);
    mesh_ = -1;
    int keep = 0;
    for (size_t m = 0; result.scenario && m < result.scenario->meshes.size(); ++m)
        if (QString::fromStdString(result.scenario->meshes[m].name) == previousMesh)
            keep = static_cast<int>(m);
    setMesh(result.scenario && !result.scenario->meshes.empty() ? keep : -1);
    nodes_ = nodeMapOf(result);
    onSelectionChanged();
}

void MeshCanvas::setPrediction(const PlanResult& result) {
    if (result.plan != result_.plan) return setResult(result);
    result_.prediction = result.prediction;
    nodes_ = nodeMapOf(result);
    update();
}

void MeshCanvas::setShowNodes(bool show) {
    showNodes_ = show;
    update();
}

const Mesh* MeshCanvas::mesh() const {
    if (!result_.scenario || mesh_ < 0) return nullptr;
    return &result_.scenario->meshes[static_cast<size_t>(mesh_)];
}

void MeshCanvas::setMesh(int meshIndex) {
    if (meshIndex == mesh_ && mesh_ >= 0) return;
    mesh_ = meshIndex;
    window_ = {};
    blocks_ =
        mesh() && result_.index ? MeshBlocks(*mesh(), result_.index->computedNumel) : MeshBlocks();
    blockLayout_ = MeshLayout();
    auto dims = mesh() ? MeshLayout::defaultDims(*mesh()) : std::pair{-1, -1};
    if (!blocks_.empty()) {
        // The rank cells (and the Rows / Columns boxes) take the overview's
        // dims, so that both levels show the same pair of mesh dims.
        const auto blockDims = MeshLayout::defaultDims(blocks_.blockMesh());
        blockLayout_ = MeshLayout(blocks_.blockMesh(), blockDims.first, blockDims.second);
        const auto meshDim = [this](int blockDim) {
            return blockDim < 0 ? -1 : blocks_.gridDims()[static_cast<size_t>(blockDim)];
        };
        dims = {meshDim(blockDims.first), meshDim(blockDims.second)};
    }
    rebuildBlocks();
    rebuildBlockOverlay();
    rebuildLayout(dims.first, dims.second);
    emit meshChanged(mesh_);
    emit levelChanged();
}

void MeshCanvas::setDims(int rowDim, int colDim) {
    // The overview follows where the blocks have both dims (else it keeps its own).
    if (!blocks_.empty()) {
        const auto& grid = blocks_.gridDims();
        const auto blockDim = [&grid](int dim) {
            const auto it = std::find(grid.begin(), grid.end(), dim);
            return it == grid.end() ? -2 : static_cast<int>(it - grid.begin());
        };
        const int row = rowDim < 0 ? -1 : blockDim(rowDim);
        const int col = colDim < 0 ? -1 : blockDim(colDim);
        if (row != -2 && col != -2 && (row >= 0 || col >= 0)) {
            blockLayout_ = MeshLayout(blocks_.blockMesh(), row, col);
            rebuildBlocks();
            rebuildBlockOverlay();
        }
    }
    rebuildLayout(rowDim, colDim);
}

// The rank cells: the whole mesh, the zoomed window of a large one, or none at its overview.
void MeshCanvas::rebuildLayout(int rowDim, int colDim) {
    rowDim_ = rowDim;
    colDim_ = colDim;
    if (!mesh())
        layout_ = MeshLayout();
    else if (blocks_.empty())
        layout_ = MeshLayout(*mesh(), rowDim, colDim);
    else if (window_.empty())
        layout_ = MeshLayout();
    else
        layout_ = MeshLayout(window_.subMesh(*mesh()), rowDim, colDim, window_.origin());
    resetZoom();
}

MeshCanvas::Level MeshCanvas::level() const {
    if (blocks_.empty()) return Level::Ranks;
    return window_.empty() ? Level::Overview : Level::Zoomed;
}

const MeshLayout& MeshCanvas::shownLayout() const {
    return level() == Level::Overview ? blockLayout_ : layout_;
}

void MeshCanvas::setStatistic(BlockStatistic statistic) {
    statistic_ = statistic;
    rebuildBlocks();
    update();
}

// The blocks' colour scale (from the smallest statistic above zero to the
// largest), the worst blocks and one image per panel, a pixel per block:
// the overview then paints O(panels), never O(ranks).
void MeshCanvas::rebuildBlocks() {
    blockImages_.clear();
    worst_.clear();
    if (blocks_.empty()) return;
    double floor = 0, top = 0;
    for (int b = 0; b < blocks_.count(); ++b) {
        const double v = blocks_.statistic(b, statistic_);
        if (v > 0) floor = floor > 0 ? std::min(floor, v) : v;
        top = std::max(top, v);
    }
    blockHeat_ = HeatScale::logarithmic(floor, top);
    worst_ = blocks_.worst(statistic_, kWorstBlocks);
    const auto& cells = blockLayout_.cells();
    for (const MeshPanel& panel : blockLayout_.panels()) {
        const int columns = static_cast<int>(panel.cols), rows = static_cast<int>(panel.rows);
        QImage image(columns, rows, QImage::Format_RGB32);
        for (int i = 0; i < columns * rows; ++i) {
            const int block = cells[panel.firstCell + static_cast<size_t>(i)].rank;
            image.setPixel(i % columns, i / columns,
                           blockHeat_.colorForValue(blocks_.statistic(block, statistic_)).rgb());
        }
        blockImages_.push_back(image);
    }
}

// The selection's rank sets as the blocks that hold them.
void MeshCanvas::rebuildBlockOverlay() {
    blockOverlay_ = SelectionOverlay();
    if (blocks_.empty()) return;
    blockOverlay_.ownerRanks = blocks_.blocksOf(overlay_.ownerRanks);
    blockOverlay_.computeRanks = blocks_.blocksOf(overlay_.computeRanks);
    blockOverlay_.replicateGroup = blocks_.blocksOf(overlay_.replicateGroup);
    blockOverlay_.shardGroup = blocks_.blocksOf(overlay_.shardGroup);
    blockOverlay_.tpRanks = blocks_.blocksOf(overlay_.tpRanks);
    blockOverlay_.groupRanks = blocks_.blocksOf(overlay_.groupRanks);
    blockOverlay_.pickedRanks = blocks_.blocksOf(overlay_.pickedRanks);
    blockOverlay_.mesh = overlay_.mesh;
}

void MeshCanvas::zoomIntoWindow(const MeshWindow& window) {
    if (blocks_.empty() || window.empty() || !mesh()) return;
    if (window_.empty()) {
        overviewZoom_ = zoom_;
        overviewPan_ = pan_;
    }
    window_ = window;
    rebuildLayout(rowDim_, colDim_);
    emit levelChanged();
}

bool MeshCanvas::zoomIntoBlock(int block) {
    MeshWindow window = windowAround(blocks_, block, kDescendRanks);
    if (window.empty()) return false;
    zoomIntoWindow(window);
    return true;
}

void MeshCanvas::zoomToOverview() {
    if (window_.empty()) return;
    window_ = {};
    rebuildLayout(rowDim_, colDim_);
    zoom_ = overviewZoom_;
    pan_ = overviewPan_;
    // One step out of where it descended, so the next wheel step in does not
    // descend straight away.
    zoomBy(1 / 1.2, rect().center());
    emit levelChanged();
}

QString MeshCanvas::breadcrumb() const {
    if (blocks_.empty() || !mesh()) return {};
    const QString all =
        tr("all %1 ranks").arg(QLocale(QLocale::English).toString(qlonglong(mesh()->size())));
    if (window_.empty()) return all + QStringLiteral(" — ") + blocks_.description();
    return all + QStringLiteral(" ▸ ") + window_.text(*mesh());
}

void MeshCanvas::onSelectionChanged() {
    overlay_ =
        selection_ ? selectionOverlay(result_, selection_->stateFor(result_)) : SelectionOverlay();
    // Follow the selection to its mesh (an expert param lives on the expert mesh).
    if (overlay_.mesh && overlay_.mesh != mesh() && result_.scenario) {
        auto position = overlay_.mesh - result_.scenario->meshes.data();
        setMesh(static_cast<int>(position));
    }
    rebuildBlockOverlay();
    update();
}

void MeshCanvas::resetZoom() {
    zoom_ = 1.0;
    pan_ = {};
    update();
}

void MeshCanvas::zoomBy(double factor, const QPointF& anchor) {
    double zoom = std::clamp(zoom_ * factor, 0.25, 64.0);
    factor = zoom / zoom_;
    // Keep the canvas point under the anchor where it is.
    pan_ = anchor - (anchor - pan_) * factor;
    zoom_ = zoom;
    update();
}

// The overview zoomed far enough that its visible blocks' ranks fit as cells: show those.
void MeshCanvas::descendIfClose() {
    if (level() != Level::Overview || zoom_ <= 1.0) return;
    MeshWindow window = visibleWindow();
    if (!window.empty() && window.size() <= kDescendRanks) zoomIntoWindow(window);
}

// The whole blocks under the cell area at the current zoom and pan.
MeshWindow MeshCanvas::visibleWindow() const {
    const QRectF cellArea(0, 0, std::max(0.0, width() - kLegendWidth), height());
    const QRectF visible = canvasTransform(size()).inverted().mapRect(cellArea);
    Coord lo, hi;
    for (const MeshCell& cell : blockLayout_.cells()) {
        if (!visible.intersects(cell.rect)) continue;
        const Coord g = blocks_.gridCoord(cell.rank);
        if (lo.empty()) lo = hi = g;
        for (size_t d = 0; d < g.size(); ++d) {
            lo[d] = std::min(lo[d], g[d]);
            hi[d] = std::max(hi[d], g[d]);
        }
    }
    return lo.empty() ? MeshWindow() : windowOfBlocks(blocks_, lo, hi);
}

void MeshCanvas::zoomToBand(const QRectF& deviceRect) {
    const QRectF band = deviceRect.normalized();
    if (band.width() < 4 || band.height() < 4) return;
    if (level() == Level::Overview) {
        const QRectF canvas = canvasTransform(size()).inverted().mapRect(band);
        Coord lo, hi;
        for (const MeshCell& cell : blockLayout_.cells()) {
            if (!canvas.intersects(cell.rect)) continue;
            const Coord g = blocks_.gridCoord(cell.rank);
            if (lo.empty()) lo = hi = g;
            for (size_t d = 0; d < g.size(); ++d) {
                lo[d] = std::min(lo[d], g[d]);
                hi[d] = std::max(hi[d], g[d]);
            }
        }
        MeshWindow window = lo.empty() ? MeshWindow() : windowOfBlocks(blocks_, lo, hi);
        if (!window.empty() && window.size() <= MeshBlocks::kMaxRankCells)
            return zoomIntoWindow(window);
    }
    // Too many ranks under the band (or rank cells already): zoom onto it.
    const QRectF area(0, 0, std::max(1.0, width() - kLegendWidth), std::max(1, height()));
    const double factor = std::min(area.width() / band.width(), area.height() / band.height());
    zoomBy(factor, band.center());
    pan_ += area.center() - band.center();
    descendIfClose();
    update();
}

QTransform MeshCanvas::canvasTransform(const QSize& size) const {
    return fitTransform(size) * QTransform(zoom_, 0, 0, zoom_, pan_.x(), pan_.y());
}

namespace {
constexpr double kFitMargin = 12.0;  // around the fitted mesh
}  // namespace

QSize MeshCanvas::fittedSize(const QSize& size) const {
    const QRectF bounds = shownLayout().bounds();
    if (bounds.isEmpty()) return size;
    const QTransform fit = fitTransform(size);
    const int width =
        static_cast<int>(std::ceil(bounds.width() * fit.m11() + 2 * kFitMargin + kLegendWidth));
    const int height = static_cast<int>(std::ceil(bounds.height() * fit.m11() + 2 * kFitMargin));
    return {std::min(size.width(), width),
            std::min(size.height(), std::max(height, kMinFittedHeight))};
}

QTransform MeshCanvas::fitTransform(const QSize& size) const {
    constexpr double margin = kFitMargin;
    const double legend = kLegendWidth;
    QRectF bounds = shownLayout().bounds();
    if (bounds.isEmpty()) return {};
    double available = std::max(1.0, size.width() - legend - 2 * margin);
    double scale =
        std::min(available / bounds.width(), (size.height() - 2 * margin) / bounds.height());
    scale = std::min(scale, 4.0);
    double x = margin + (available - bounds.width() * scale) / 2 - bounds.left() * scale;
    double y =
        margin + (size.height() - 2 * margin - bounds.height() * scale) / 2 - bounds.top() * scale;
    return QTransform(scale, 0, 0, scale, x, y);
}

int MeshCanvas::blockAtPixel(const QPointF& pos) const {
    if (level() != Level::Overview) return -1;
    bool invertible = false;
    QPointF canvas = canvasTransform(size()).inverted(&invertible).map(pos);
    int cell = invertible ? blockLayout_.cellAt(canvas) : -1;
    return cell < 0 ? -1 : blockLayout_.cells()[static_cast<size_t>(cell)].rank;
}

int MeshCanvas::rankAtPixel(const QPointF& pos) const {
    if (level() == Level::Overview) return -1;
    bool invertible = false;
    QPointF canvas = canvasTransform(size()).inverted(&invertible).map(pos);
    int cell = invertible ? layout_.cellAt(canvas) : -1;
    return cell < 0 ? -1 : layout_.cells()[static_cast<size_t>(cell)].rank;
}

void MeshCanvas::zoomIn() {
    zoomBy(1.25, rect().center());
    descendIfClose();
}

void MeshCanvas::zoomOut() {
    if (level() == Level::Zoomed && zoom_ <= 1.0) return zoomToOverview();
    zoomBy(0.8, rect().center());
}

void MeshCanvas::wheelEvent(QWheelEvent* event) {
    event->accept();
    const bool in = event->angleDelta().y() > 0;
    // Zoomed in on a window: out past fit climbs back to the overview.
    if (!in && level() == Level::Zoomed && zoom_ <= 1.0) return zoomToOverview();
    zoomBy(in ? 1.2 : 1 / 1.2, event->position());
    if (in) descendIfClose();
}

void MeshCanvas::mousePressEvent(QMouseEvent* event) {
    dragStart_ = event->position();
    bandEnd_ = dragStart_;
    panAtDragStart_ = pan_;
    dragging_ = false;
    banding_ = (event->modifiers() & Qt::ShiftModifier) && event->button() == Qt::LeftButton;
}

void MeshCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    if (banding_) {
        bandEnd_ = event->position();
        dragging_ = true;
        return update();
    }
    QPointF delta = event->position() - dragStart_;
    dragging_ = dragging_ || delta.manhattanLength() > 4;
    if (!dragging_) return;
    pan_ = panAtDragStart_ + delta;
    setCursor(Qt::ClosedHandCursor);
    update();
}

void MeshCanvas::mouseReleaseEvent(QMouseEvent* event) {
    unsetCursor();
    if (banding_) {
        banding_ = false;
        update();
        if (dragging_) return zoomToBand(QRectF(dragStart_, event->position()));
    }
    if (dragging_ || !selection_) return;
    if (level() == Level::Overview) {  // a click selects the block's ranks
        return selection_->selectRanks(blocks_.ranksOf(blockAtPixel(event->position())));
    }
    int rank = rankAtPixel(event->position());
    selection_->selectRanks(rank < 0 ? std::vector<int>{} : std::vector<int>{rank});
}

void MeshCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    if (level() == Level::Overview) zoomIntoBlock(blockAtPixel(event->position()));
}

void MeshCanvas::keyPressEvent(QKeyEvent* event) {
    if (level() == Level::Zoomed && event->key() == Qt::Key_Backspace) return zoomToOverview();
    QWidget::keyPressEvent(event);
}

bool MeshCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    if (int block = blockAtPixel(help->pos()); block >= 0) {
        QToolTip::showText(help->globalPos(), toolTipForBlock(block), this);
        return true;
    }
    int rank = rankAtPixel(help->pos());
    if (rank < 0) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), toolTipFor(rank), this);
    }
    return true;
}

void MeshCanvas::setFaults(const RankFaults& faults) {
    faults_ = faults;
    update();
}

QString MeshCanvas::toolTipFor(int rank) const {
    const Mesh* m = mesh();
    QStringList coord;
    if (auto c = m ? m->coordinateOf(rank) : std::nullopt)
        for (size_t d = 0; d < c->size(); ++d)
            coord
                << QStringLiteral("%1=%2").arg(QString::fromStdString(m->dimNames[d])).arg((*c)[d]);
    QString text =
        QStringLiteral("<b>rank %1</b>  %2").arg(rank).arg(coord.join(QStringLiteral(", ")));
    if (int node = nodes_.nodeOf(rank); node >= 0)
        text += tr("<br>node %1 of %2 × %3 (%4 ranks per node)")
                    .arg(node)
                    .arg(nodes_.nodes)
                    .arg(nodes_.clusterName.toHtmlEscaped())
                    .arg(nodes_.devicesPerNode);
    if (const QString fault = faults_.reasonOf(rank); !fault.isEmpty())
        text += QStringLiteral("<br><b style='color:%1'>✗ %2</b>")
                    .arg(faultColor().name(), fault.toHtmlEscaped());
    if (!result_.plan || static_cast<size_t>(rank) >= result_.plan->ranks.size()) return text;
    const RankOwnership& r = result_.plan->ranks[static_cast<size_t>(rank)];
    auto count = [](int64_t n) { return humanCount(static_cast<double>(n)); };
    text += tr("<br>holds %1 elements (its shards)").arg(count(r.heldNumel));
    text += tr("<br>gathers %1 elements (fused all-gathers; under all-to-all it receives only "
               "the matrices it computes)")
                .arg(count(r.gatheredNumel));
    text += tr("<br>runs Newton–Schulz on %1 params, %2 elements")
                .arg(r.computed.size())
                .arg(count(r.computedNumel));
    text += paramNames(r.computed, 10);
    if (!r.adamw.empty()) {
        text += tr("<br>updates %1 AdamW params itself, %2 elements of its shards (no "
                   "communication)")
                    .arg(r.adamw.size())
                    .arg(count(r.adamwNumel));
        text += paramNames(r.adamw, 10);
    }
    text += tr("<br>its owner coordinate owns %1 params, %2 elements (whole, shared with "
               "its shard group)")
                .arg(r.owned.size())
                .arg(count(r.ownedNumel));
    return text;
}

QString MeshCanvas::toolTipForBlock(int block) const {
    if (block < 0 || block >= blocks_.count()) return {};
    auto count = [](double n) { return humanCount(n); };
    QString text = QStringLiteral("<b>%1</b><br>%2 (%3)")
                       .arg(blocks_.name(block).toHtmlEscaped(), blocks_.rankText(block))
                       .arg(tr("%n rank(s)", nullptr, blocks_.rankCount(block)));
    text += tr("<br>Newton–Schulz numel per rank: max %1, mean %2, max / mean %3")
                .arg(count(blocks_.maxOf(block)), count(blocks_.meanOf(block)))
                .arg(blocks_.statistic(block, BlockStatistic::MaxOverMean), 0, 'f', 2);
    auto worst = std::find(worst_.begin(), worst_.end(), block);
    if (worst != worst_.end())
        text += tr("<br><b>#%1 by %2</b>")
                    .arg(worst - worst_.begin() + 1)
                    .arg(blockStatisticName(statistic_));
    text += tr("<br>click selects its ranks, double-click zooms in");
    return text;
}

// Up to `limit` param names, one per line, then "… N more".
QString MeshCanvas::paramNames(const std::vector<int>& params, size_t limit) const {
    QString text;
    for (size_t i = 0; i < params.size() && i < limit; ++i)
        text +=
            QStringLiteral("<br>&nbsp;&nbsp;") +
            QString::fromStdString(result_.scenario->params[static_cast<size_t>(params[i])].name)
                .toHtmlEscaped();
    if (params.size() > limit)
        text += QStringLiteral("<br>&nbsp;&nbsp;… %1 more").arg(params.size() - limit);
    return text;
}

void MeshCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintMesh(painter, size(), canvasTransform(size()));
}

QImage MeshCanvas::renderImage(const QSize& size) const {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paintMesh(painter, size, fitTransform(size));
    return image;
}

}  // namespace hsdp
