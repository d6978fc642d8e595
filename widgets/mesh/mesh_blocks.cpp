// SPDX-License-Identifier: Apache-2.0
#include "mesh/mesh_blocks.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>

namespace hsdp {

namespace {

QString thousands(int64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(n));
}

}  // namespace

QString blockStatisticName(BlockStatistic statistic) {
    switch (statistic) {
        case BlockStatistic::Max:
            return QStringLiteral("max");
        case BlockStatistic::Mean:
            return QStringLiteral("mean");
        case BlockStatistic::MaxOverMean:
            return QStringLiteral("max / mean");
    }
    return {};
}

MeshBlocks::MeshBlocks(const Mesh& mesh, const std::vector<int64_t>& values)
    : shape_(mesh.shape), dimNames_(mesh.dimNames) {
    if (mesh.size() <= kMaxRankCells) return;
    chooseFactors();
    std::vector<int64_t> blockShape;
    std::vector<std::string> blockNames;
    for (size_t d = 0; d < grid_.size(); ++d) {
        if (grid_[d] <= 1) continue;
        gridDims_.push_back(static_cast<int>(d));
        blockShape.push_back(grid_[d]);
        blockNames.push_back(dimNames_[d]);
    }
    if (blockShape.empty()) {  // one block: a one-cell mesh along the last dim
        gridDims_.push_back(mesh.ndim() - 1);
        blockShape.push_back(1);
        blockNames.push_back(dimNames_.back());
    }
    blockMesh_ = std::make_shared<const Mesh>(mesh.name, blockShape, blockNames);
    count_ = static_cast<int>(blockMesh_->size());
    accumulate(mesh, values);
}

// Fold the innermost dims until at most kMaxBlocks remain. The innermost
// dim folds whole when it is node-sized (<= kWholeDim ranks), so a block is
// its group, never a piece of it; a longer dim that need not fold whole
// folds by its smallest divisor that is enough, so blocks are equal.
void MeshBlocks::chooseFactors() {
    factors_.assign(shape_.size(), 1);
    grid_ = shape_;
    int64_t blocks =
        std::accumulate(shape_.begin(), shape_.end(), int64_t{1}, std::multiplies<int64_t>());
    for (size_t d = shape_.size(); d-- > 0 && blocks > kMaxBlocks;) {
        const int64_t rest = blocks / shape_[d];
        int64_t f = shape_[d];
        const bool whole = d + 1 == shape_.size() && shape_[d] <= kWholeDim;
        for (int64_t k = 2; k < shape_[d] && !whole; ++k)
            if (shape_[d] % k == 0 && rest * (shape_[d] / k) <= kMaxBlocks) {
                f = k;
                break;
            }
        factors_[d] = f;
        grid_[d] = shape_[d] / f;
        blocks = rest * grid_[d];
    }
}

// One pass over the mesh positions (an odometer, no coordinate vectors):
// each rank's block, the blocks' rank lists and their max and sum.
void MeshBlocks::accumulate(const Mesh& mesh, const std::vector<int64_t>& values) {
    const size_t n = shape_.size();
    std::vector<int64_t> stride(n, 1);
    for (size_t d = n - 1; d-- > 0;) stride[d] = stride[d + 1] * grid_[d + 1];
    const int maxRank = *std::max_element(mesh.ranks.begin(), mesh.ranks.end());
    blockOfRank_.assign(static_cast<size_t>(maxRank + 1), -1);
    std::vector<int> blockOfPosition(mesh.ranks.size());
    std::vector<int64_t> coord(n, 0);
    rankStart_.assign(static_cast<size_t>(count_) + 1, 0);
    max_.assign(static_cast<size_t>(count_), 0.0);
    sum_.assign(static_cast<size_t>(count_), 0.0);
    for (size_t p = 0; p < mesh.ranks.size(); ++p) {
        int64_t block = 0;
        for (size_t d = 0; d < n; ++d) block += coord[d] / factors_[d] * stride[d];
        const auto b = static_cast<size_t>(block);
        const int rank = mesh.ranks[p];
        blockOfPosition[p] = static_cast<int>(block);
        blockOfRank_[static_cast<size_t>(rank)] = static_cast<int>(block);
        ++rankStart_[b + 1];
        const double v =
            static_cast<size_t>(rank) < values.size() ? double(values[size_t(rank)]) : 0.0;
        max_[b] = std::max(max_[b], v);
        sum_[b] += v;
        for (size_t d = n; d-- > 0;) {  // the next position, row-major
            if (++coord[d] < shape_[d]) break;
            coord[d] = 0;
        }
    }
    std::partial_sum(rankStart_.begin(), rankStart_.end(), rankStart_.begin());
    ranksByBlock_.resize(mesh.ranks.size());
    std::vector<int> next(rankStart_.begin(), rankStart_.end() - 1);
    for (size_t p = 0; p < mesh.ranks.size(); ++p)
        ranksByBlock_[static_cast<size_t>(next[static_cast<size_t>(blockOfPosition[p])]++)] =
            mesh.ranks[p];
}

int MeshBlocks::blockOf(int rank) const {
    return rank >= 0 && static_cast<size_t>(rank) < blockOfRank_.size()
               ? blockOfRank_[static_cast<size_t>(rank)]
               : -1;
}

std::vector<int> MeshBlocks::ranksOf(int block) const {
    if (block < 0 || block >= count_) return {};
    return {ranksByBlock_.begin() + rankStart_[static_cast<size_t>(block)],
            ranksByBlock_.begin() + rankStart_[static_cast<size_t>(block) + 1]};
}

int MeshBlocks::rankCount(int block) const {
    return rankStart_[static_cast<size_t>(block) + 1] - rankStart_[static_cast<size_t>(block)];
}

Coord MeshBlocks::gridCoord(int block) const {
    Coord coord(grid_.size(), 0);
    int64_t rest = block;
    for (size_t d = grid_.size(); d-- > 0;) {
        coord[d] = rest % grid_[d];
        rest /= grid_[d];
    }
    return coord;
}

int MeshBlocks::blockAt(const Coord& gridCoord) const {
    int64_t block = 0;
    for (size_t d = 0; d < grid_.size(); ++d) {
        if (gridCoord[d] < 0 || gridCoord[d] >= grid_[d]) return -1;
        block = block * grid_[d] + gridCoord[d];
    }
    return static_cast<int>(block);
}

std::vector<std::pair<int64_t, int64_t>> MeshBlocks::extent(int block) const {
    const Coord g = gridCoord(block);
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t d = 0; d < g.size(); ++d)
        out.emplace_back(g[d] * factors_[d], std::min(shape_[d], (g[d] + 1) * factors_[d]) - 1);
    return out;
}

double MeshBlocks::meanOf(int block) const {
    const int n = rankCount(block);
    return n > 0 ? sum_[static_cast<size_t>(block)] / n : 0.0;
}

double MeshBlocks::statistic(int block, BlockStatistic statistic) const {
    switch (statistic) {
        case BlockStatistic::Max:
            return maxOf(block);
        case BlockStatistic::Mean:
            return meanOf(block);
        case BlockStatistic::MaxOverMean: {
            const double mean = meanOf(block);
            return mean > 0 ? maxOf(block) / mean : 0.0;
        }
    }
    return 0.0;
}

std::vector<int> MeshBlocks::worst(BlockStatistic statistic, size_t n) const {
    std::vector<std::pair<double, int>> ranked;
    for (int b = 0; b < count_; ++b)
        if (double v = this->statistic(b, statistic); v > 0) ranked.emplace_back(-v, b);
    n = std::min(n, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n),
                      ranked.end());
    std::vector<int> out;
    for (size_t i = 0; i < n; ++i) out.push_back(ranked[i].second);
    return out;
}

std::vector<int> MeshBlocks::blocksOf(const std::vector<int>& ranks) const {
    std::vector<char> seen(static_cast<size_t>(count_), 0);
    for (int rank : ranks)
        if (int b = blockOf(rank); b >= 0) seen[static_cast<size_t>(b)] = 1;
    std::vector<int> out;
    for (int b = 0; b < count_; ++b)
        if (seen[static_cast<size_t>(b)]) out.push_back(b);
    return out;
}

QString MeshBlocks::name(int block) const {
    const Coord g = gridCoord(block);
    const auto span = extent(block);
    QStringList parts;
    for (size_t d = 0; d < g.size(); ++d) {
        const QString dim = QString::fromStdString(dimNames_[d]);
        if (grid_[d] <= 1) continue;  // folded whole: every block has all of it
        if (factors_[d] == 1)
            parts << QStringLiteral("%1=%2").arg(dim).arg(g[d]);
        else
            parts << QStringLiteral("%1 %2–%3").arg(dim).arg(span[d].first).arg(span[d].second);
    }
    return parts.join(QStringLiteral(", "));
}

QString MeshBlocks::rankText(int block) const {
    const std::vector<int> ranks = ranksOf(block);
    if (ranks.empty()) return {};
    const auto [lo, hi] = std::minmax_element(ranks.begin(), ranks.end());
    if (*hi - *lo + 1 == static_cast<int>(ranks.size()))
        return QStringLiteral("ranks %1–%2").arg(thousands(*lo), thousands(*hi));
    return QStringLiteral("%1 ranks from %2").arg(ranks.size()).arg(thousands(*lo));
}

QString MeshBlocks::description() const {
    if (empty()) return {};
    int64_t perBlock = 1;
    QStringList folded;
    for (size_t d = 0; d < factors_.size(); ++d) {
        perBlock *= factors_[d];
        const QString dim = QString::fromStdString(dimNames_[d]);
        if (grid_[d] == 1 && factors_[d] > 1)
            folded << dim;
        else if (factors_[d] > 1)
            folded << QStringLiteral("%1 runs of %2").arg(dim).arg(factors_[d]);
    }
    return QStringLiteral("%1 blocks of %2 ranks (%3)")
        .arg(thousands(count_))
        .arg(perBlock)
        .arg(folded.join(QStringLiteral(", ")));
}

}  // namespace hsdp
