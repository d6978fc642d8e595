#include "views/mesh_layout.h"

#include <QStringList>
#include <algorithm>

namespace hsdp {

MeshLayout::MeshLayout(const Mesh& mesh, int rowDim, int colDim)
    : rowDim_(rowDim), colDim_(colDim) {
    if (rowDim_ == colDim_) rowDim_ = -1;
    rows_ = rowDim_ >= 0 ? mesh.dimSize(rowDim_) : 1;
    cols_ = colDim_ >= 0 ? mesh.dimSize(colDim_) : 1;
    if (mesh.ranks.empty()) return;
    std::vector<int> panelDims;
    for (int d = 0; d < mesh.ndim(); ++d)
        if (d != rowDim_ && d != colDim_) panelDims.push_back(d);
    place(mesh, panelDims);
}

std::pair<int, int> MeshLayout::defaultDims(const Mesh& mesh) {
    int n = mesh.ndim();
    return {n >= 2 ? n - 2 : -1, n >= 1 ? n - 1 : -1};
}

void MeshLayout::place(const Mesh& mesh, const std::vector<int>& panelDims) {
    std::vector<int64_t> panelSizes;
    for (int d : panelDims) panelSizes.push_back(mesh.dimSize(d));
    std::vector<Coord> panelCoords = allCoordinates(panelSizes);
    const double width = static_cast<double>(cols_) * kCellSize;
    const double height = static_cast<double>(rows_) * kCellSize;
    const double title = panelDims.empty() ? 0.0 : kTitleHeight;
    panelColumns_ = bestPanelColumns(static_cast<int>(panelCoords.size()), width, height + title);
    cellOfRank_.assign(static_cast<size_t>(std::max<int64_t>(
                           0, *std::max_element(mesh.ranks.begin(), mesh.ranks.end()) + 1)),
                       -1);
    for (size_t p = 0; p < panelCoords.size(); ++p) {
        double x =
            static_cast<double>(p % static_cast<size_t>(panelColumns_)) * (width + kPanelGap);
        double y = static_cast<double>(p / static_cast<size_t>(panelColumns_)) *
                       (height + title + kPanelGap) +
                   title;
        QStringList parts;
        for (size_t i = 0; i < panelDims.size(); ++i)
            parts << QStringLiteral("%1=%2")
                         .arg(QString::fromStdString(mesh.dimNames.at(panelDims[i])))
                         .arg(panelCoords[p][i]);
        panels_.push_back({parts.join(QStringLiteral("  ")), QRectF(x, y, width, height)});
        Coord coord(static_cast<size_t>(mesh.ndim()), 0);
        for (size_t i = 0; i < panelDims.size(); ++i)
            coord[static_cast<size_t>(panelDims[i])] = panelCoords[p][i];
        for (int64_t r = 0; r < rows_; ++r) {
            for (int64_t c = 0; c < cols_; ++c) {
                if (rowDim_ >= 0) coord[static_cast<size_t>(rowDim_)] = r;
                if (colDim_ >= 0) coord[static_cast<size_t>(colDim_)] = c;
                int rank = mesh.rankAt(coord);
                if (rank >= 0 && static_cast<size_t>(rank) < cellOfRank_.size())
                    cellOfRank_[static_cast<size_t>(rank)] = static_cast<int>(cells_.size());
                cells_.push_back(
                    {rank, coord,
                     QRectF(x + static_cast<double>(c) * kCellSize,
                            y + static_cast<double>(r) * kCellSize, kCellSize, kCellSize)});
            }
        }
        bounds_ |= QRectF(x, y - title, width, height + title);
    }
}

// The number of panel columns that makes cells largest in a landscape (16:10) area.
int MeshLayout::bestPanelColumns(int panels, double width, double height) {
    int best = 1;
    double bestScale = 0;
    for (int columns = 1; columns <= panels; ++columns) {
        int rows = (panels + columns - 1) / columns;
        double w = columns * (width + kPanelGap), h = rows * (height + kPanelGap);
        double scale = std::min(1.6 / w, 1.0 / h);
        if (scale > bestScale * 1.0001) {
            best = columns;
            bestScale = scale;
        }
    }
    return best;
}

int MeshLayout::cellAt(const QPointF& point) const {
    for (size_t p = 0; p < panels_.size(); ++p) {
        const QRectF& area = panels_[p].rect;
        if (!area.contains(point)) continue;
        auto r = static_cast<int64_t>((point.y() - area.top()) / kCellSize);
        auto c = static_cast<int64_t>((point.x() - area.left()) / kCellSize);
        r = std::clamp<int64_t>(r, 0, rows_ - 1);
        c = std::clamp<int64_t>(c, 0, cols_ - 1);
        return static_cast<int>(static_cast<int64_t>(p) * rows_ * cols_ + r * cols_ + c);
    }
    return -1;
}

int MeshLayout::cellOfRank(int rank) const {
    if (rank < 0 || static_cast<size_t>(rank) >= cellOfRank_.size()) return -1;
    return cellOfRank_[static_cast<size_t>(rank)];
}

}  // namespace hsdp
