// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "types/geometry.h"
#include "types/scenario.h"

namespace hsdp {

struct PlanIndex;

// Which 2-D cut of a parameter the tensor layout view shows: one tensor dim
// down the rows, one across the columns (-1: none, for 1-D and 0-D params),
// and for every other dim the index the picture slices at.
struct TensorAxes {
    int rowDim = -1;
    int colDim = -1;
    std::vector<int64_t> slice;  // by tensor dim; read only for the dims not shown

    // The last two dims (a 1-D param: its dim across), slice at index 0.
    static TensorAxes defaultFor(const ParamSpec& param);
    bool operator==(const TensorAxes&) const = default;
};

// The ranks holding one shard coordinate: every rank whose coordinates on
// the mesh dims that shard the param are `coord` (replicate and partial mesh
// dims only copy the piece), with the piece they hold.
struct ShardGroup {
    Coord coord;             // by mesh dim; 0 on the mesh dims that do not shard
    std::vector<int> ranks;  // mesh order
    ShardLayout layout;      // the engine's shardLayout for these ranks
    bool inSlice = true;     // holds the sliced index of every dim not shown
    bool hazard = false;     // a hazard diagnostic of this param marks its piece

    bool isEmpty() const { return layout.localNumel() == 0; }
};

// One rectangle of global indices [rows) x [cols) held by the same groups.
struct TensorBlock {
    IndexRange rows;
    IndexRange cols;
    int rowBand = 0;          // position between TensorBlocks::rowCuts
    int colBand = 0;          // position between TensorBlocks::colCuts
    std::vector<int> groups;  // positions in TensorBlocks::groups, ascending
    bool hazard = false;      // a held group is marked
};

// The selected param's chosen 2-D cut as blocks: both shown dims are cut at
// every boundary of every group's index ranges, so each block lies wholly
// inside or wholly outside each group's piece. A strided shard has several
// ranges, so its blocks interleave with the other coordinates' blocks. Works
// on ranges only: the cost is groups x ranges, never elements.
struct TensorBlocks {
    // Above this many blocks neighbouring bands merge (`merged`): a merged
    // block lists every group holding part of it and is no longer exact.
    static constexpr int64_t kMaxBlocks = 8192;

    int param = -1;
    std::string error;        // placements the engine cannot lay out
    bool plainLocal = false;  // no DTensor: every rank holds the whole tensor
    TensorAxes axes;
    std::vector<int> shardMeshDims;  // mesh dims with a Shard / _StridedShard placement
    std::vector<int64_t> rowCuts;    // band edges, ascending, from 0 to the row extent
    std::vector<int64_t> colCuts;
    std::vector<ShardGroup> groups;   // one per shard coordinate, lexicographic
    std::vector<TensorBlock> blocks;  // row-major over the bands
    int64_t exactBlockCount = 0;      // before merging
    bool merged = false;
    std::vector<std::string> hazardCodes;  // the layout hazards this param's diagnostics name

    int64_t rowExtent() const { return rowCuts.empty() ? 0 : rowCuts.back(); }
    int64_t colExtent() const { return colCuts.empty() ? 0 : colCuts.back(); }
    // The global indices `group` holds along the shown row / column dim.
    IndexSet rowSet(const ShardGroup& group) const;
    IndexSet colSet(const ShardGroup& group) const;
    // Every rank of the blocks' groups, ascending.
    std::vector<int> ranksOf(const TensorBlock& block) const;
};

// The layout hazard codes (uneven-shard, nested-shard-order,
// strided-shard-chunk, shard-rank-order) the plan's diagnostics name for `param`.
std::vector<std::string> layoutHazardCodes(const Plan& plan, const PlanIndex& index, int param);

// `hazardCodes` decides which groups are marked: uneven-shard the groups
// holding less than the largest piece (short and empty shards),
// shard-rank-order the groups on a shard line whose ranks run out of order,
// nested-shard-order and strided-shard-chunk every group (every piece lands
// in the wrong place of the reference's gather).
TensorBlocks computeTensorBlocks(const Scenario& scenario, int param, const TensorAxes& axes,
                                 const std::vector<std::string>& hazardCodes = {});

}  // namespace hsdp
