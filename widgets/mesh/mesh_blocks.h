// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "types/mesh.h"

namespace hsdp {

// What colours a block of ranks: the largest per-rank load in it, the mean,
// or their ratio (1 = evenly spread inside the block, 8 = one rank of 8
// carries it all).
enum class BlockStatistic { Max, Mean, MaxOverMean };
QString blockStatisticName(BlockStatistic statistic);

// A mesh too large to draw rank by rank, cut into blocks: the innermost dims
// are folded into each block (whole dims first, then a run of the next dim),
// until at most kMaxBlocks blocks remain. Why the innermost: ranks are laid
// out row-major, so the innermost dims hold consecutive ranks, the ones
// torchrun puts on one node, and in an HSDP mesh the innermost dim is
// dp_shard, so a block of [R, R, 8] is exactly one shard group: one replicate
// coordinate, the unit the planner gives params to. A block's colour then
// answers "which owner coordinate carries too much", and its max / mean how
// evenly that coordinate's ranks split the Newton–Schulz work.
//
// The blocks form a smaller mesh of their own (blockMesh(): the dims not
// folded away, "rank" r = block r, row-major), so MeshLayout places them as
// it places ranks. Per-block statistics are computed once from the per-rank
// values (O(ranks)); painting reads them per block.
class MeshBlocks {
public:
    // Beyond this many ranks a mesh is drawn in blocks: the largest mesh the
    // rank layout keeps at >= 4 px cells in 1200x800 (tst_mesh_view's long,
    // thin 16,384-rank meshes); beyond it cells of 2-3 px read as noise.
    static constexpr int64_t kMaxRankCells = 16384;
    // At most this many blocks: 128 x 128 fits 1600x1000 at ~7 px a block.
    static constexpr int64_t kMaxBlocks = 16384;
    // An innermost dim of at most this many ranks (a node's GPUs, a shard
    // group) folds whole into each block.
    static constexpr int64_t kWholeDim = 64;

    MeshBlocks() = default;
    // Blocks of `mesh` when it has more than kMaxRankCells ranks, else empty.
    // `values`: the per-rank load, by global rank (missing ranks count 0).
    MeshBlocks(const Mesh& mesh, const std::vector<int64_t>& values);

    bool empty() const { return count_ == 0; }
    int count() const { return count_; }
    // Ranks per block along each mesh dim (the last block of a dim may be short).
    const std::vector<int64_t>& factors() const { return factors_; }
    const std::vector<int64_t>& gridShape() const { return grid_; }  // blocks along each mesh dim
    const Mesh& blockMesh() const { return *blockMesh_; }
    // blockMesh() dim -> mesh dim.
    const std::vector<int>& gridDims() const { return gridDims_; }

    int blockOf(int rank) const;  // -1: not in the mesh
    std::vector<int> ranksOf(int block) const;
    int rankCount(int block) const;
    Coord gridCoord(int block) const;  // along every mesh dim
    int blockAt(const Coord& gridCoord) const;
    // Each mesh dim's first and last rank coordinate in `block`.
    std::vector<std::pair<int64_t, int64_t>> extent(int block) const;

    double statistic(int block, BlockStatistic statistic) const;
    double maxOf(int block) const { return max_[static_cast<size_t>(block)]; }
    double meanOf(int block) const;
    // The `n` blocks with the largest statistic above zero, largest first
    // (ties: the lower block).
    std::vector<int> worst(BlockStatistic statistic, size_t n) const;
    // The distinct blocks holding any of `ranks`, ascending.
    std::vector<int> blocksOf(const std::vector<int>& ranks) const;

    // "dp_outer=12, dp_replicate=40" (a run: "dp_shard 0–3").
    QString name(int block) const;
    // "ranks 12,345–12,352" when consecutive, else "8 ranks from 12,345".
    QString rankText(int block) const;
    // "blocks of 8 ranks (dp_shard)".
    QString description() const;

private:
    void chooseFactors();
    void accumulate(const Mesh& mesh, const std::vector<int64_t>& values);

    std::vector<int64_t> shape_;
    std::vector<std::string> dimNames_;
    int count_ = 0;
    std::vector<int64_t> factors_, grid_;
    std::vector<int> gridDims_;
    std::shared_ptr<const Mesh> blockMesh_;
    std::vector<int> blockOfRank_;               // by global rank, -1 outside
    std::vector<int> rankStart_, ranksByBlock_;  // CSR: block b's ranks, mesh order
    std::vector<double> max_, sum_;
};

}  // namespace hsdp
