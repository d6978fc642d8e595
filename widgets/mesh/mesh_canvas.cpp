// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_canvas.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>
#include <QWheelEvent>

#include "shared/plan_index.h"

namespace hsdp {

MeshCanvas::MeshCanvas(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    setMouseTracking(true);
    setMinimumSize(200, 150);
    setFocusPolicy(Qt::StrongFocus);
    if (selection_)
        connect(selection_, &PlanSelection::changed, this, &MeshCanvas::onSelectionChanged);
}

void MeshCanvas::setResult(const PlanResult& result) {
    QString previousMesh = mesh() ? QString::fromStdString(mesh()->name) : QString();
    result_ = result;
    heat_ = HeatScale(result.index ? result.index->maxComputedNumel : 0);
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
    auto dims = mesh() ? MeshLayout::defaultDims(*mesh()) : std::pair{-1, -1};
    rebuildLayout(dims.first, dims.second);
    emit meshChanged(mesh_);
}

void MeshCanvas::setDims(int rowDim, int colDim) {
    rebuildLayout(rowDim, colDim);
}

void MeshCanvas::rebuildLayout(int rowDim, int colDim) {
    layout_ = mesh() ? MeshLayout(*mesh(), rowDim, colDim) : MeshLayout();
    resetZoom();
}

void MeshCanvas::onSelectionChanged() {
    overlay_ =
        selection_ ? selectionOverlay(result_, selection_->stateFor(result_)) : SelectionOverlay();
    // Follow the selection to its mesh (an expert param lives on the expert mesh).
    if (overlay_.mesh && overlay_.mesh != mesh() && result_.scenario) {
        auto position = overlay_.mesh - result_.scenario->meshes.data();
        setMesh(static_cast<int>(position));
    }
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

QTransform MeshCanvas::canvasTransform(const QSize& size) const {
    return fitTransform(size) * QTransform(zoom_, 0, 0, zoom_, pan_.x(), pan_.y());
}

QTransform MeshCanvas::fitTransform(const QSize& size) const {
    constexpr double margin = 12.0;
    const double legend = kLegendWidth;
    QRectF bounds = layout_.bounds();
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

int MeshCanvas::rankAtPixel(const QPointF& pos) const {
    bool invertible = false;
    QPointF canvas = canvasTransform(size()).inverted(&invertible).map(pos);
    int cell = invertible ? layout_.cellAt(canvas) : -1;
    return cell < 0 ? -1 : layout_.cells()[static_cast<size_t>(cell)].rank;
}

void MeshCanvas::wheelEvent(QWheelEvent* event) {
    zoomBy(event->angleDelta().y() > 0 ? 1.2 : 1 / 1.2, event->position());
    event->accept();
}

void MeshCanvas::mousePressEvent(QMouseEvent* event) {
    dragStart_ = event->position();
    panAtDragStart_ = pan_;
    dragging_ = false;
}

void MeshCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    QPointF delta = event->position() - dragStart_;
    dragging_ = dragging_ || delta.manhattanLength() > 4;
    if (!dragging_) return;
    pan_ = panAtDragStart_ + delta;
    setCursor(Qt::ClosedHandCursor);
    update();
}

void MeshCanvas::mouseReleaseEvent(QMouseEvent* event) {
    unsetCursor();
    if (dragging_ || !selection_) return;
    int rank = rankAtPixel(event->position());
    selection_->selectRanks(rank < 0 ? std::vector<int>{} : std::vector<int>{rank});
}

bool MeshCanvas::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    int rank = rankAtPixel(help->pos());
    if (rank < 0) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), toolTipFor(rank), this);
    }
    return true;
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
    if (!result_.plan || static_cast<size_t>(rank) >= result_.plan->ranks.size()) return text;
    const RankOwnership& r = result_.plan->ranks[static_cast<size_t>(rank)];
    auto count = [](int64_t n) { return humanCount(static_cast<double>(n)); };
    text += tr("<br>holds %1 elements (its shards)").arg(count(r.heldNumel));
    text += tr("<br>gathers %1 elements (fused all-gathers)").arg(count(r.gatheredNumel));
    text += tr("<br>runs Newton–Schulz on %1 params, %2 elements")
                .arg(r.computed.size())
                .arg(count(r.computedNumel));
    text += paramNames(r.computed, 10);
    text += tr("<br>its owner coordinate owns %1 params, %2 elements (whole, shared with "
               "its shard group)")
                .arg(r.owned.size())
                .arg(count(r.ownedNumel));
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
