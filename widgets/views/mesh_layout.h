#pragma once

#include <QRectF>
#include <QString>
#include <vector>

#include "model/mesh.h"

namespace hsdp {

// Where each rank of an N-D mesh sits on a 2-D canvas, in canvas units (one
// cell is `cellSize` wide). One mesh dim runs down the rows and one across
// the columns; every other dim becomes a small multiple: one panel per
// combination of their coordinates, panels tiled in a near-square grid. A
// pure function of the mesh and the dim choice, so tests can read the exact
// cell geometry that the view paints.
struct MeshCell {
    int rank = 0;
    Coord coord;
    QRectF rect;
};

struct MeshPanel {
    QString title;  // "dp_replicate=1" (empty for a single panel)
    QRectF rect;    // the cells' area; the title sits above it
};

class MeshLayout {
public:
    static constexpr double kCellSize = 48.0;
    static constexpr double kPanelGap = 24.0;
    static constexpr double kTitleHeight = 22.0;

    MeshLayout() = default;
    // rowDim / colDim: mesh dims, or -1 for none (a 1-D mesh has no row dim).
    MeshLayout(const Mesh& mesh, int rowDim, int colDim);

    const std::vector<MeshCell>& cells() const { return cells_; }
    const std::vector<MeshPanel>& panels() const { return panels_; }
    QRectF bounds() const { return bounds_; }
    int rowDim() const { return rowDim_; }
    int colDim() const { return colDim_; }
    // The cell under a canvas point, or -1 (an index into cells()).
    int cellAt(const QPointF& point) const;
    // The cell of `rank`, or -1.
    int cellOfRank(int rank) const;

    // Default dims: the last mesh dim across, the one before it down.
    static std::pair<int, int> defaultDims(const Mesh& mesh);

private:
    void place(const Mesh& mesh, const std::vector<int>& panelDims);
    static int bestPanelColumns(int panels, double width, double height);

    std::vector<MeshCell> cells_;
    std::vector<MeshPanel> panels_;
    std::vector<int> cellOfRank_;  // by rank: index into cells_, or -1
    QRectF bounds_;
    int rowDim_ = -1, colDim_ = -1;
    int64_t rows_ = 1, cols_ = 1;
    int panelColumns_ = 1;
};

}  // namespace hsdp
