// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <utility>
#include <vector>

#include "mesh/mesh_blocks.h"

namespace hsdp {

// The part of a large mesh the view is zoomed into: a box of coordinates,
// one inclusive range per mesh dim, always whole blocks. Its ranks form a
// sub-mesh (same dims, the global ranks) that MeshLayout lays out rank by
// rank as it lays out a small mesh; its coordinates start at origin().
struct MeshWindow {
    std::vector<std::pair<int64_t, int64_t>> ranges;

    bool empty() const { return ranges.empty(); }
    int64_t size() const;
    Coord origin() const;
    Mesh subMesh(const Mesh& mesh) const;
    // "dp_outer 32–47 × dp_replicate 0–15 (2,048 ranks)": the breadcrumb's last step.
    QString text(const Mesh& mesh) const;
    bool operator==(const MeshWindow&) const = default;
};

// The ranks of the blocks from grid coordinate `lo` to `hi` (inclusive, along every mesh dim).
MeshWindow windowOfBlocks(const MeshBlocks& blocks, const Coord& lo, const Coord& hi);
// A window of at most `ranks` ranks around `block`, as square as the grid allows.
MeshWindow windowAround(const MeshBlocks& blocks, int block, int64_t ranks);
// The blocks the window covers, ascending.
std::vector<int> blocksIn(const MeshBlocks& blocks, const MeshWindow& window);

}  // namespace hsdp
