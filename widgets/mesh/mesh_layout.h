// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRectF>
#include <QString>
#include <vector>

#include "types/mesh.h"

namespace hsdp {

// Where each rank of an N-D mesh sits on a 2-D canvas, in canvas units (one
// cell is `cellSize` wide). One mesh dim runs down the rows and one across
// the columns; every other dim becomes a small multiple: one panel per
// combination of their coordinates, panels tiled in a near-square grid. A
// long, thin grid (4x4096, 16,384x1) would fit as a hairline of sub-pixel
// cells, so its long dim wraps: the grid is cut into segments along that dim
// (one panel each, titled with its coordinate range) tiled like small
// multiples. A pure function of the mesh and the dim choice, so tests can
// read the exact cell geometry that the view paints.
struct MeshCell {
    int rank = 0;
    Coord coord;
    QRectF rect;
};

struct MeshPanel {
    QString title;  // "dp_replicate=1", "dp_shard 0–63" (empty for a single panel)
    QRectF rect;    // the cells' area; the title sits above it
    int64_t rows = 1, cols = 1;
    size_t firstCell = 0;  // the panel's cells are cells()[firstCell, firstCell + rows * cols)
};

class MeshLayout {
public:
    static constexpr double kCellSize = 48.0;
    static constexpr double kPanelGap = 24.0;
    static constexpr double kTitleHeight = 22.0;

    MeshLayout() = default;
    // rowDim / colDim: mesh dims, or -1 for none (a 1-D mesh has no row dim).
    // `origin`: where `mesh` starts in a larger one (a MeshWindow's sub-mesh):
    // cells' coordinates and panel titles count from it.
    MeshLayout(const Mesh& mesh, int rowDim, int colDim, Coord origin = {});

    const std::vector<MeshCell>& cells() const { return cells_; }
    const std::vector<MeshPanel>& panels() const { return panels_; }
    QRectF bounds() const { return bounds_; }
    int rowDim() const { return rowDim_; }
    int colDim() const { return colDim_; }
    // The cell under a canvas point, or -1 (an index into cells()).
    int cellAt(const QPointF& point) const;
    // The cell of `rank`, or -1.
    int cellOfRank(int rank) const;
    // The cell `dr` rows and `dc` columns from cell `cell` in the same panel, or -1.
    int neighbour(int cell, int dr, int dc) const;
    // The mesh dim cut into segments (rowDim or colDim), or -1 when none is.
    int wrappedDim() const { return wrapDim_; }

    // Default dims: the last mesh dim across, the one before it down.
    static std::pair<int, int> defaultDims(const Mesh& mesh);

private:
    struct Tiling {
        int columns = 1;
        double scale = 0;  // of a unit landscape area: larger is larger cells
    };
    void chooseWrap(int64_t panels, bool titled);
    void place(const Mesh& mesh, const std::vector<int>& panelDims);
    void placePanel(const Mesh& mesh, Coord coord, int64_t segment, const QPointF& origin,
                    const QString& title);
    QString segmentTitle(const Mesh& mesh, int64_t segment) const;
    static Tiling bestTiling(int64_t panels, double width, double height);

    std::vector<MeshCell> cells_;
    std::vector<MeshPanel> panels_;
    std::vector<int> cellOfRank_;  // by rank: index into cells_, or -1
    QRectF bounds_;
    int rowDim_ = -1, colDim_ = -1;
    int64_t rows_ = 1, cols_ = 1;  // of the whole grid, before wrapping
    int wrapDim_ = -1;
    int64_t segments_ = 1, segmentLength_ = 1;  // along wrapDim_
    int panelColumns_ = 1;
    double titleHeight_ = 0;
    Coord origin_;
};

}  // namespace hsdp
