// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_window.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>

namespace hsdp {

int64_t MeshWindow::size() const {
    int64_t n = ranges.empty() ? 0 : 1;
    for (const auto& [lo, hi] : ranges) n *= hi - lo + 1;
    return n;
}

Coord MeshWindow::origin() const {
    Coord coord;
    for (const auto& range : ranges) coord.push_back(range.first);
    return coord;
}

Mesh MeshWindow::subMesh(const Mesh& mesh) const {
    std::vector<int64_t> shape;
    for (const auto& [lo, hi] : ranges) shape.push_back(hi - lo + 1);
    std::vector<int> ranks;
    ranks.reserve(static_cast<size_t>(size()));
    Coord coord = origin();
    for (int64_t i = 0; i < size(); ++i) {
        ranks.push_back(mesh.rankAt(coord));
        for (size_t d = coord.size(); d-- > 0;) {  // the next coordinate, row-major
            if (++coord[d] <= ranges[d].second) break;
            coord[d] = ranges[d].first;
        }
    }
    return Mesh(mesh.name, shape, mesh.dimNames, ranks);
}

QString MeshWindow::text(const Mesh& mesh) const {
    QStringList parts;
    for (size_t d = 0; d < ranges.size(); ++d) {
        const auto [lo, hi] = ranges[d];
        if (lo == 0 && hi == mesh.shape[d] - 1) continue;  // the whole dim says nothing
        const QString dim = QString::fromStdString(mesh.dimNames[d]);
        parts << (lo == hi ? QStringLiteral("%1=%2").arg(dim).arg(lo)
                           : QStringLiteral("%1 %2–%3").arg(dim).arg(lo).arg(hi));
    }
    return QStringLiteral("%1 (%2 ranks)")
        .arg(parts.join(QStringLiteral(" × ")),
             QLocale(QLocale::English).toString(static_cast<qlonglong>(size())));
}

MeshWindow windowOfBlocks(const MeshBlocks& blocks, const Coord& lo, const Coord& hi) {
    MeshWindow window;
    const int first = blocks.blockAt(lo), last = blocks.blockAt(hi);
    if (first < 0 || last < 0) return window;
    const auto from = blocks.extent(first), to = blocks.extent(last);
    for (size_t d = 0; d < from.size(); ++d)
        window.ranges.emplace_back(from[d].first, to[d].second);
    return window;
}

MeshWindow windowAround(const MeshBlocks& blocks, int block, int64_t ranks) {
    if (block < 0 || block >= blocks.count()) return {};
    const auto& grid = blocks.gridShape();
    const int64_t perBlock = blocks.rankCount(block);
    auto cover = [&](int64_t k) {
        int64_t n = perBlock;
        for (int d : blocks.gridDims()) n *= std::min(k, grid[static_cast<size_t>(d)]);
        return n;
    };
    int64_t k = 1;
    const int64_t longest = *std::max_element(grid.begin(), grid.end());
    while (k < longest && cover(k + 1) <= ranks) ++k;
    const Coord at = blocks.gridCoord(block);
    Coord lo = at, hi = at;
    for (int d : blocks.gridDims()) {
        const auto i = static_cast<size_t>(d);
        const int64_t side = std::min(k, grid[i]);
        lo[i] = std::clamp(at[i] - side / 2, int64_t{0}, grid[i] - side);
        hi[i] = lo[i] + side - 1;
    }
    return windowOfBlocks(blocks, lo, hi);
}

std::vector<int> blocksIn(const MeshBlocks& blocks, const MeshWindow& window) {
    std::vector<int> out;
    if (window.empty()) return out;
    const auto& f = blocks.factors();
    Coord lo, hi;
    for (size_t d = 0; d < f.size(); ++d) {
        lo.push_back(window.ranges[d].first / f[d]);
        hi.push_back(window.ranges[d].second / f[d]);
    }
    Coord g = lo;
    while (true) {
        out.push_back(blocks.blockAt(g));
        size_t d = g.size();
        while (d-- > 0) {
            if (++g[d] <= hi[d]) break;
            g[d] = lo[d];
        }
        if (d == static_cast<size_t>(-1)) break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace hsdp
