// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QPointer>
#include <QTransform>
#include <QWidget>

#include "mesh/mesh_layout.h"
#include "mesh/node_map.h"
#include "mesh/selection_overlay.h"
#include "shared/heat_scale.h"
#include "shared/plan_result.h"
#include "shared/plan_selection.h"

namespace hsdp {

// One mesh as a grid of rank cells (MeshLayout), coloured by the Newton–Schulz
// numel each rank computes (HeatScale, legend at the right), with the shared
// selection's rank sets outlined and the ranks that run the selected param's
// Newton–Schulz flagged; with a cluster chosen, its nodes outlined. Wheel or zoomIn/zoomOut zoom
// around the cursor, dragging pans, hovering shows the rank's ownership, clicking selects the rank.
// Paints through paintMesh() into any QPainter, so a QImage rendering is exactly what the screen
// shows. Level of detail: labels go before cells.
class MeshCanvas : public QWidget {
    Q_OBJECT
public:
    enum class Detail { RankAndCoordinate, Rank, Cells, DenseCells };

    explicit MeshCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    // The plan's prediction arrived (or went): only the node outlines change.
    void setPrediction(const PlanResult& result);
    void setShowNodes(bool show);
    bool showsNodes() const { return showNodes_ && !nodes_.empty(); }
    const NodeMap& nodes() const { return nodes_; }
    void setMesh(int meshIndex);  // position in Scenario::meshes
    int meshIndex() const { return mesh_; }
    const Mesh* mesh() const;
    void setDims(int rowDim, int colDim);

    const MeshLayout& meshLayout() const { return layout_; }
    const SelectionOverlay& overlay() const { return overlay_; }
    const HeatScale& heatScale() const { return heat_; }

    static constexpr double kLegendWidth = 150.0;
    // Below this many pixels a cell, selections are outlined as whole sets
    // (paintSetOutlines) rather than inside each cell.
    static constexpr double kCellOutlinePixels = 22.0;
    static constexpr double kMinOutlineWidth = 2.0;
    // Node boundaries are drawn while a cell is at least this many pixels.
    static constexpr double kMinNodeCellPixels = 3.0;
    static QColor nodeColor();
    // The legend's line for the nodes at `cellPixels` a cell ("" without
    // them): below kMinNodeCellPixels it says to zoom in, as none is drawn.
    QString nodeLegendText(double cellPixels) const;

    // Canvas (layout units) to device pixels: fitted to `size`, then the
    // user's zoom and pan (canvasTransform) or not (fitTransform).
    QTransform canvasTransform(const QSize& size) const;
    QTransform fitTransform(const QSize& size) const;
    static Detail detailFor(double cellPixels);
    void paintMesh(QPainter& painter, const QSize& size, const QTransform& toDevice) const;
    QImage renderImage(const QSize& size) const;  // fitted, no zoom or pan
    // Where the Newton–Schulz flag of a cell drawn at `cellBox` goes (its top-right corner).
    static QRectF computeMarkRect(const QRectF& cellBox, double cellPixels);
    QString toolTipFor(int rank) const;

    QSize sizeHint() const override { return {720, 480}; }

public slots:
    void zoomIn() { zoomBy(1.25, rect().center()); }
    void zoomOut() { zoomBy(0.8, rect().center()); }
    void resetZoom();

signals:
    void meshChanged(int meshIndex);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void onSelectionChanged();
    void rebuildLayout(int rowDim, int colDim);
    void zoomBy(double factor, const QPointF& anchor);
    int rankAtPixel(const QPointF& pos) const;
    QString paramNames(const std::vector<int>& params, size_t limit) const;
    void paintCells(QPainter& painter, const QTransform& toDevice, const QRectF& visible) const;
    void paintCellBlocks(QPainter& painter, const QTransform& toDevice, double gap) const;
    int64_t computedNumelOf(int rank) const;
    void paintOverlays(QPainter& painter, const QTransform& toDevice, double cellPixels) const;
    void paintComputeMarks(QPainter& painter, const QTransform& toDevice, double cellPixels) const;
    void paintSetOutlines(QPainter& painter, const QTransform& toDevice) const;
    void paintNodeBoundaries(QPainter& painter, const QTransform& toDevice, const QRectF& visible,
                             double cellPixels) const;
    double paintNodeLegend(QPainter& painter, const QRectF& area, double y,
                           double cellPixels) const;
    void paintCellBorder(QPainter& painter, const QTransform& toDevice,
                         const std::vector<char>& inSet, size_t c, double width, double offset,
                         const QColor& color) const;
    void paintPanelTitles(QPainter& painter, const QTransform& toDevice) const;
    void paintLegend(QPainter& painter, const QSize& size, double cellPixels) const;
    void paintFocusName(QPainter& painter, const QRectF& area) const;
    void paintEmpty(QPainter& painter, const QSize& size) const;

    QPointer<PlanSelection> selection_;
    PlanResult result_;
    int mesh_ = -1;
    MeshLayout layout_;
    SelectionOverlay overlay_;
    HeatScale heat_;
    NodeMap nodes_;
    bool showNodes_ = true;
    double zoom_ = 1.0;
    QPointF pan_;  // device pixels
    QPointF dragStart_;
    QPointF panAtDragStart_;
    bool dragging_ = false;
};

}  // namespace hsdp
