// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_layout.h"

#include <QStringList>
#include <algorithm>

namespace hsdp {

namespace {

// Wrapping must pay: a grid is cut only when that makes its cells at least
// this many times larger, so square-ish meshes keep their one grid.
constexpr double kWrapGain = 2.0;
// Enough segments for 16,384 ranks in one row; bounds the search and the
// number of panels painted.
constexpr int64_t kMaxPanels = 1024;

}  // namespace

MeshLayout::MeshLayout(const Mesh& mesh, int rowDim, int colDim, Coord origin)
    : rowDim_(rowDim), colDim_(colDim), origin_(std::move(origin)) {
    if (origin_.empty()) origin_.assign(static_cast<size_t>(mesh.ndim()), 0);
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

// Picks the dim to cut and the segment length that make cells largest in a
// landscape area (every segment count whose segments differ is tried).
void MeshLayout::chooseWrap(int64_t panels, bool titled) {
    const double title = titled ? kTitleHeight : 0.0;
    const double whole = bestTiling(panels, static_cast<double>(cols_) * kCellSize,
                                    static_cast<double>(rows_) * kCellSize + title)
                             .scale;
    double best = whole * kWrapGain;
    for (int dim : {colDim_, rowDim_}) {
        if (dim < 0) continue;
        const int64_t length = dim == colDim_ ? cols_ : rows_;
        for (int64_t k = 2; k <= length && panels * k <= kMaxPanels; ++k) {
            const int64_t segment = (length + k - 1) / k;
            if ((length + segment - 1) / segment != k) continue;  // a smaller k cuts the same
            const double w = static_cast<double>(dim == colDim_ ? segment : cols_) * kCellSize;
            const double h =
                static_cast<double>(dim == rowDim_ ? segment : rows_) * kCellSize + kTitleHeight;
            const double scale = bestTiling(panels * k, w, h).scale;
            if (scale <= best) continue;
            best = scale;
            wrapDim_ = dim;
            segments_ = k;
            segmentLength_ = segment;
        }
    }
}

void MeshLayout::place(const Mesh& mesh, const std::vector<int>& panelDims) {
    std::vector<int64_t> panelSizes;
    for (int d : panelDims) panelSizes.push_back(mesh.dimSize(d));
    std::vector<Coord> panelCoords = allCoordinates(panelSizes);
    chooseWrap(static_cast<int64_t>(panelCoords.size()), !panelDims.empty());
    const double width =
        static_cast<double>(wrapDim_ >= 0 && wrapDim_ == colDim_ ? segmentLength_ : cols_) *
        kCellSize;
    const double height =
        static_cast<double>(wrapDim_ >= 0 && wrapDim_ == rowDim_ ? segmentLength_ : rows_) *
        kCellSize;
    titleHeight_ = panelDims.empty() && segments_ == 1 ? 0.0 : kTitleHeight;
    const auto total = static_cast<int64_t>(panelCoords.size()) * segments_;
    panelColumns_ = bestTiling(total, width, height + titleHeight_).columns;
    cellOfRank_.assign(static_cast<size_t>(std::max<int64_t>(
                           0, *std::max_element(mesh.ranks.begin(), mesh.ranks.end()) + 1)),
                       -1);
    for (size_t p = 0; p < panelCoords.size(); ++p) {
        QStringList parts;
        Coord coord(static_cast<size_t>(mesh.ndim()), 0);
        for (size_t i = 0; i < panelDims.size(); ++i) {
            parts << QStringLiteral("%1=%2")
                         .arg(QString::fromStdString(mesh.dimNames.at(panelDims[i])))
                         .arg(panelCoords[p][i] + origin_[static_cast<size_t>(panelDims[i])]);
            coord[static_cast<size_t>(panelDims[i])] = panelCoords[p][i];
        }
        for (int64_t s = 0; s < segments_; ++s) {
            const int64_t index = static_cast<int64_t>(p) * segments_ + s;
            const double x = static_cast<double>(index % panelColumns_) * (width + kPanelGap);
            const double y =
                static_cast<double>(index / panelColumns_) * (height + titleHeight_ + kPanelGap) +
                titleHeight_;
            QStringList title = parts;
            if (segments_ > 1) title << segmentTitle(mesh, s);
            placePanel(mesh, coord, s, QPointF(x, y), title.join(QStringLiteral("  ")));
        }
    }
}

// One panel: the whole grid, or segment `segment` of the wrapped dim.
void MeshLayout::placePanel(const Mesh& mesh, Coord coord, int64_t segment, const QPointF& origin,
                            const QString& title) {
    int64_t rows = rows_, cols = cols_, rowStart = 0, colStart = 0;
    const int64_t start = segment * segmentLength_;
    if (wrapDim_ >= 0 && wrapDim_ == rowDim_) {
        rowStart = start;
        rows = std::min(segmentLength_, rows_ - start);
    }
    if (wrapDim_ >= 0 && wrapDim_ == colDim_) {
        colStart = start;
        cols = std::min(segmentLength_, cols_ - start);
    }
    const QRectF area(origin, QSizeF(static_cast<double>(cols) * kCellSize,
                                     static_cast<double>(rows) * kCellSize));
    panels_.push_back({title, area, rows, cols, cells_.size()});
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            if (rowDim_ >= 0) coord[static_cast<size_t>(rowDim_)] = rowStart + r;
            if (colDim_ >= 0) coord[static_cast<size_t>(colDim_)] = colStart + c;
            int rank = mesh.rankAt(coord);
            if (rank >= 0 && static_cast<size_t>(rank) < cellOfRank_.size())
                cellOfRank_[static_cast<size_t>(rank)] = static_cast<int>(cells_.size());
            Coord global = coord;
            for (size_t d = 0; d < global.size(); ++d) global[d] += origin_[d];
            cells_.push_back(
                {rank, std::move(global),
                 QRectF(origin.x() + static_cast<double>(c) * kCellSize,
                        origin.y() + static_cast<double>(r) * kCellSize, kCellSize, kCellSize)});
        }
    }
    bounds_ |= area.adjusted(0, -titleHeight_, 0, 0);
}

// "dp_shard 0–63": the wrapped dim's coordinates in segment `segment`.
QString MeshLayout::segmentTitle(const Mesh& mesh, int64_t segment) const {
    const int64_t length = wrapDim_ == rowDim_ ? rows_ : cols_;
    const int64_t first = segment * segmentLength_;
    const int64_t last = std::min(length, first + segmentLength_) - 1;
    const int64_t offset = origin_[static_cast<size_t>(wrapDim_)];
    return QStringLiteral("%1 %2–%3")
        .arg(QString::fromStdString(mesh.dimNames.at(static_cast<size_t>(wrapDim_))))
        .arg(first + offset)
        .arg(last + offset);
}

// The number of panel columns that makes cells largest in a landscape (16:10) area.
MeshLayout::Tiling MeshLayout::bestTiling(int64_t panels, double width, double height) {
    Tiling best;
    for (int64_t columns = 1; columns <= panels; ++columns) {
        const int64_t rows = (panels + columns - 1) / columns;
        const double w = static_cast<double>(columns) * (width + kPanelGap);
        const double h = static_cast<double>(rows) * (height + kPanelGap);
        const double scale = std::min(1.6 / w, 1.0 / h);
        if (scale > best.scale * 1.0001) best = {static_cast<int>(columns), scale};
    }
    return best;
}

int MeshLayout::cellAt(const QPointF& point) const {
    for (const MeshPanel& panel : panels_) {
        if (!panel.rect.contains(point)) continue;
        auto r = static_cast<int64_t>((point.y() - panel.rect.top()) / kCellSize);
        auto c = static_cast<int64_t>((point.x() - panel.rect.left()) / kCellSize);
        r = std::clamp<int64_t>(r, 0, panel.rows - 1);
        c = std::clamp<int64_t>(c, 0, panel.cols - 1);
        return static_cast<int>(static_cast<int64_t>(panel.firstCell) + r * panel.cols + c);
    }
    return -1;
}

int MeshLayout::neighbour(int cell, int dr, int dc) const {
    if (cell < 0 || static_cast<size_t>(cell) >= cells_.size()) return -1;
    auto after =
        std::upper_bound(panels_.begin(), panels_.end(), static_cast<size_t>(cell),
                         [](size_t c, const MeshPanel& panel) { return c < panel.firstCell; });
    const MeshPanel& panel = *std::prev(after);
    const auto i = static_cast<int64_t>(static_cast<size_t>(cell) - panel.firstCell);
    const int64_t r = i / panel.cols + dr, c = i % panel.cols + dc;
    if (r < 0 || r >= panel.rows || c < 0 || c >= panel.cols) return -1;
    return static_cast<int>(static_cast<int64_t>(panel.firstCell) + r * panel.cols + c);
}

int MeshLayout::cellOfRank(int rank) const {
    if (rank < 0 || static_cast<size_t>(rank) >= cellOfRank_.size()) return -1;
    return cellOfRank_[static_cast<size_t>(rank)];
}

}  // namespace hsdp
