// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QPointer>
#include <QTransform>
#include <QWidget>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "derived/run/node_map.h"
#include "mesh/mesh_blocks.h"
#include "mesh/mesh_layout.h"
#include "mesh/mesh_window.h"
#include "mesh/rank_faults.h"
#include "mesh/selection_overlay.h"
#include "painting/heat_scale.h"

namespace hsdp {

// One mesh as a grid of rank cells (MeshLayout), coloured by the Newton–Schulz
// numel each rank computes (HeatScale, legend at the right), with the shared
// selection's rank sets outlined and the ranks that run the selected param's
// Newton–Schulz flagged; with a cluster chosen, its nodes outlined. Wheel or zoomIn/zoomOut zoom
// around the cursor, dragging pans, hovering shows the rank's ownership, clicking selects the rank.
// Paints through paintMesh() into any QPainter, so a QImage rendering is exactly what the screen
// shows. Level of detail: labels go before cells.
//
// A mesh of more than MeshBlocks::kMaxRankCells ranks opens at its overview
// (Level::Overview): one cell per block of ranks (MeshBlocks), coloured by
// the chosen statistic of the block's Newton–Schulz numel on a logarithmic
// scale, the kWorstBlocks largest outlined and listed in the legend, the
// selection's rank sets outlined as the blocks that hold them. Wheel zooms
// the blocks; once the visible blocks hold at most kDescendRanks ranks, or
// on Shift+drag (rubber band) or double-click of a block, the view descends
// to Level::Zoomed: the ranks of a window of whole blocks (MeshWindow) drawn
// cell by cell as a small mesh is, with a minimap of the overview marking the
// window. Wheel out past fit, Backspace or the breadcrumb's first step climb back.
// A click always selects: at the overview the block's ranks, zoomed in the
// rank (so a click never moves the view; zooming is wheel, band, double-click).
class MeshCanvas : public QWidget {
    Q_OBJECT
public:
    enum class Detail { RankAndCoordinate, Rank, Cells, DenseCells };
    enum class Level { Ranks, Overview, Zoomed };

    explicit MeshCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    // The plan's prediction arrived (or went): only the node outlines change.
    void setPrediction(const PlanResult& result);
    void setShowNodes(bool show);
    // The ranks a run or a job found at fault: a red corner mark on each
    // one's cell (at any zoom of the rank cells), named in the legend and
    // the cell's tooltip. The overview's blocks are not marked.
    void setFaults(const RankFaults& faults);
    const RankFaults& faults() const { return faults_; }
    // Where the fault mark of a cell drawn at `cellBox` goes (its bottom-left corner).
    static QRectF faultMarkRect(const QRectF& cellBox, double cellPixels);
    static QColor faultColor();
    bool showsNodes() const { return showNodes_ && !nodes_.empty(); }
    const NodeMap& nodes() const { return nodes_; }
    void setMesh(int meshIndex);  // position in Scenario::meshes
    int meshIndex() const { return mesh_; }
    const Mesh* mesh() const;
    void setDims(int rowDim, int colDim);
    // The mesh dims down the rows and across the columns of the rank cells
    // (kept at the overview for when it zooms in).
    std::pair<int, int> dims() const { return {rowDim_, colDim_}; }

    // The rank cells drawn: the whole mesh, the zoomed window, or none at the overview.
    const MeshLayout& meshLayout() const { return layout_; }
    const SelectionOverlay& overlay() const { return overlay_; }
    const HeatScale& heatScale() const { return heat_; }

    // Large meshes: the blocks, their layout (a block cell's rank is its block
    // index), their colour scale, and the selection as blocks (each rank set
    // of overlay() replaced by the blocks holding its ranks).
    Level level() const;
    const MeshBlocks& blocks() const { return blocks_; }
    const MeshLayout& blockLayout() const { return blockLayout_; }
    const HeatScale& blockHeat() const { return blockHeat_; }
    const SelectionOverlay& blockOverlay() const { return blockOverlay_; }
    const std::vector<int>& worstBlocks() const { return worst_; }
    const MeshWindow& window() const { return window_; }
    BlockStatistic statistic() const { return statistic_; }
    void setStatistic(BlockStatistic statistic);
    static constexpr size_t kWorstBlocks = 5;
    // Zooming in on the overview descends once the visible blocks hold at most this many ranks.
    static constexpr int64_t kDescendRanks = 4096;
    // Descends to `window` (whole blocks, at most MeshBlocks::kMaxRankCells ranks).
    void zoomIntoWindow(const MeshWindow& window);
    // Descends to a window of about kDescendRanks ranks around `block`; false
    // when the mesh has no blocks (or no such block).
    bool zoomIntoBlock(int block);
    void zoomToOverview();
    // Rubber band: the overview descends into the blocks under `deviceRect`
    // (or zooms onto it when they hold too many ranks); ranks zoom onto it.
    void zoomToBand(const QRectF& deviceRect);
    // The path shown above the canvas: "all 131,072 ranks ▸ dp_outer 12–27 × … (2,048 ranks)".
    QString breadcrumb() const;
    int blockAtPixel(const QPointF& pos) const;
    QString toolTipForBlock(int block) const;
    static QColor worstColor();

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
    // The colour bar's title: what the colours count, and "(log)" on a log scale.
    QString heatTitle() const;

    // Canvas (layout units) to device pixels: fitted to `size`, then the
    // user's zoom and pan (canvasTransform) or not (fitTransform).
    QTransform canvasTransform(const QSize& size) const;
    QTransform fitTransform(const QSize& size) const;
    // Where the minimap goes in a `size` picture drawn through `toDevice`
    // (empty when there is none): a corner of the cell area that covers no
    // cell of the selection (bottom left first), else the one that covers
    // fewest.
    QRectF minimapRect(const QSize& size, const QTransform& toDevice) const;
    // A picture about `size` that the fitted mesh and its legend fill: no
    // wider and no taller than `size`, without the blank bands fitTransform
    // leaves either side of (or above and below) a mesh of another shape,
    // and at least kMinFittedHeight tall for the legend.
    QSize fittedSize(const QSize& size) const;
    static constexpr int kMinFittedHeight = 300;
    static Detail detailFor(double cellPixels);
    void paintMesh(QPainter& painter, const QSize& size, const QTransform& toDevice) const;
    QImage renderImage(const QSize& size) const;  // fitted, no zoom or pan
    // Where the Newton–Schulz flag of a cell drawn at `cellBox` goes (its top-right corner).
    static QRectF computeMarkRect(const QRectF& cellBox, double cellPixels);
    QString toolTipFor(int rank) const;

    QSize sizeHint() const override { return {720, 480}; }

public slots:
    void zoomIn();
    void zoomOut();
    void resetZoom();

signals:
    void meshChanged(int meshIndex);
    void levelChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void onSelectionChanged();
    void rebuildLayout(int rowDim, int colDim);
    void rebuildBlocks();
    void rebuildBlockOverlay();
    const MeshLayout& shownLayout() const;
    void zoomBy(double factor, const QPointF& anchor);
    void descendIfClose();
    MeshWindow visibleWindow() const;
    int rankAtPixel(const QPointF& pos) const;
    QString paramNames(const std::vector<int>& params, size_t limit) const;
    void paintCells(QPainter& painter, const QTransform& toDevice, const QRectF& visible) const;
    void paintCellBlocks(QPainter& painter, const QTransform& toDevice, double gap) const;
    int64_t computedNumelOf(int rank) const;
    void paintOverlays(QPainter& painter, const QTransform& toDevice, double cellPixels,
                       const MeshLayout& layout, const SelectionOverlay& overlay) const;
    void paintComputeMarks(QPainter& painter, const QTransform& toDevice, double cellPixels,
                           const MeshLayout& layout, const std::vector<int>& ranks) const;
    void paintFaultMarks(QPainter& painter, const QTransform& toDevice, double cellPixels) const;
    double paintFaultLegend(QPainter& painter, const QRectF& area, double y) const;
    void paintSetOutlines(QPainter& painter, const QTransform& toDevice, const MeshLayout& layout,
                          const SelectionOverlay& overlay) const;
    void paintNodeBoundaries(QPainter& painter, const QTransform& toDevice, const QRectF& visible,
                             double cellPixels) const;
    double paintNodeLegend(QPainter& painter, const QRectF& area, double y,
                           double cellPixels) const;
    void paintCellBorder(QPainter& painter, const QTransform& toDevice, const MeshLayout& layout,
                         const std::vector<char>& inSet, size_t c, double width, double offset,
                         const QColor& color) const;
    void paintPanelTitles(QPainter& painter, const QTransform& toDevice,
                          const MeshLayout& layout) const;
    // Paints the legend; returns where its last line ends (the selected
    // param's name, which takes what room is left, aside).
    double paintLegend(QPainter& painter, const QSize& size, double cellPixels) const;
    void paintFittedLegend(QPainter& painter, const QSize& size, double cellPixels) const;
    // mesh_canvas_overview.cpp
    void paintOverview(QPainter& painter, const QSize& size, const QTransform& toDevice) const;
    void paintBlockImages(QPainter& painter, const QTransform& toDevice, double gap) const;
    void paintWorstBlocks(QPainter& painter, const QTransform& toDevice) const;
    void paintOwnerCrosshair(QPainter& painter, const QTransform& toDevice,
                             double blockPixels) const;
    void paintMinimap(QPainter& painter, const QRectF& cellArea, const QTransform& toDevice) const;
    void paintBand(QPainter& painter) const;
    double paintHeatBar(QPainter& painter, const QRectF& area, const HeatScale& scale,
                        const QString& title) const;
    double paintWorstLegend(QPainter& painter, const QRectF& area, double y) const;
    void paintFocusName(QPainter& painter, const QRectF& area) const;
    void paintEmpty(QPainter& painter, const QSize& size) const;

    QPointer<PlanSelection> selection_;
    PlanResult result_;
    int mesh_ = -1;
    MeshLayout layout_;
    SelectionOverlay overlay_;
    HeatScale heat_;
    NodeMap nodes_;
    RankFaults faults_;
    bool showNodes_ = true;
    double zoom_ = 1.0;
    QPointF pan_;  // device pixels
    QPointF dragStart_;
    QPointF panAtDragStart_;
    bool dragging_ = false;
    bool banding_ = false;  // Shift+drag: a rubber band from dragStart_ to bandEnd_
    QPointF bandEnd_;
    int rowDim_ = -1, colDim_ = -1;  // of the rank cells
    MeshBlocks blocks_;              // empty: the mesh is drawn rank by rank
    MeshLayout blockLayout_;
    MeshWindow window_;  // empty at the overview
    BlockStatistic statistic_ = BlockStatistic::Max;
    HeatScale blockHeat_;
    std::vector<int> worst_;
    std::vector<QImage> blockImages_;  // one per block panel, a pixel per block
    SelectionOverlay blockOverlay_;
    double overviewZoom_ = 1.0;  // restored when climbing back
    QPointF overviewPan_;
};

}  // namespace hsdp
