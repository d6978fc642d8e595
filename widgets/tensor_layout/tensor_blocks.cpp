// SPDX-License-Identifier: Apache-2.0
#include "tensor_layout/tensor_blocks.h"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

#include "derived/plan/plan_index.h"
#include "plan/diagnostics.h"
#include "plan/ownership.h"

namespace hsdp {

namespace {

constexpr std::array<std::string_view, 4> kLayoutHazards{
    codes::UnevenShard, codes::NestedShardOrder, codes::StridedShardChunk, codes::ShardRankOrder};

bool contains(const IndexSet& set, int64_t index) {
    return std::any_of(set.begin(), set.end(),
                       [&](const IndexRange& r) { return r.begin <= index && index < r.end; });
}

// A dim that is not shown (a 1-D param has no row dim) is one index wide.
IndexSet setAlong(const ShardLayout& layout, int dim) {
    return dim < 0 ? IndexSet{IndexRange{0, 1}} : layout.dims[static_cast<size_t>(dim)];
}

bool hasCode(const std::vector<std::string>& codes, std::string_view code) {
    return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// One group per coordinate over the shard mesh dims, ranks in mesh order.
std::vector<ShardGroup> shardGroups(const ParamSpec& spec, const Mesh& mesh,
                                    const std::vector<int>& shardDims) {
    std::vector<int64_t> sizes(mesh.shape.size(), 1);
    for (int m : shardDims) sizes[static_cast<size_t>(m)] = mesh.shape[static_cast<size_t>(m)];
    std::vector<ShardGroup> groups;
    for (Coord& coord : allCoordinates(sizes)) {
        ShardGroup group;
        group.layout = shardLayout(spec.shape, *spec.placements, mesh.shape, coord);
        group.coord = std::move(coord);
        groups.push_back(std::move(group));
    }
    for (const Coord& coord : allCoordinates(mesh.shape)) {
        Coord reduced = coord;
        for (size_t m = 0; m < reduced.size(); ++m)
            if (sizes[m] == 1) reduced[m] = 0;
        groups[static_cast<size_t>(coordinateIndex(reduced, sizes))].ranks.push_back(
            mesh.rankAt(coord));
    }
    return groups;
}

// The picture is the 2-D slice at `axes.slice` of every dim not shown. When
// such a dim is sharded, only the groups holding the sliced index appear in
// it (the others hold other slices); when it is not, every group does.
void markSlice(std::vector<ShardGroup>& groups, const TensorAxes& axes) {
    for (ShardGroup& group : groups)
        for (size_t d = 0; d < group.layout.dims.size(); ++d)
            if (static_cast<int>(d) != axes.rowDim && static_cast<int>(d) != axes.colDim)
                group.inSlice = group.inSlice && contains(group.layout.dims[d], axes.slice.at(d));
}

// uneven-shard: the pieces smaller than the largest one along some dim.
void markShortPieces(std::vector<ShardGroup>& groups) {
    std::vector<int64_t> largest;
    for (const ShardGroup& group : groups) {
        auto shape = group.layout.localShape();
        largest.resize(shape.size(), 0);
        for (size_t d = 0; d < shape.size(); ++d) largest[d] = std::max(largest[d], shape[d]);
    }
    for (ShardGroup& group : groups)
        if (group.layout.localShape() != largest) group.hazard = true;
}

// shard-rank-order: the groups with a rank on a shard line that does not
// ascend (a process group sorts its ranks, the mesh does not).
void markUnorderedLines(std::vector<ShardGroup>& groups, const Mesh& mesh,
                        const std::vector<int>& shardDims) {
    std::set<int> unordered;
    for (int m : shardDims) {
        if (mesh.dimSize(m) <= 1) continue;
        for (const auto& line : mesh.groupsAlong(m))
            if (!std::is_sorted(line.begin(), line.end()))
                unordered.insert(line.begin(), line.end());
    }
    for (ShardGroup& group : groups)
        for (int rank : group.ranks)
            if (unordered.count(rank)) group.hazard = true;
}

void markHazards(std::vector<ShardGroup>& groups, const Mesh& mesh,
                 const std::vector<int>& shardDims, const std::vector<std::string>& codes) {
    if (hasCode(codes, codes::NestedShardOrder) || hasCode(codes, codes::StridedShardChunk))
        for (ShardGroup& group : groups) group.hazard = true;
    if (hasCode(codes, codes::UnevenShard)) markShortPieces(groups);
    if (hasCode(codes, codes::ShardRankOrder)) markUnorderedLines(groups, mesh, shardDims);
}

// Every range boundary of the groups in the slice, plus both ends.
std::vector<int64_t> cutsAlong(const std::vector<ShardGroup>& groups, int dim, int64_t extent) {
    std::vector<int64_t> cuts{0, extent};
    for (const ShardGroup& group : groups) {
        if (!group.inSlice) continue;
        for (const IndexRange& r : setAlong(group.layout, dim)) {
            cuts.push_back(r.begin);
            cuts.push_back(r.end);
        }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    return cuts;
}

// Keeps every step-th edge (and the last) so at most `bands` bands remain.
void coarsen(std::vector<int64_t>& cuts, int64_t bands) {
    const int64_t count = static_cast<int64_t>(cuts.size()) - 1;
    if (count <= bands) return;
    const int64_t step = (count + bands - 1) / bands;
    std::vector<int64_t> kept;
    for (int64_t i = 0; i < count; i += step) kept.push_back(cuts[static_cast<size_t>(i)]);
    kept.push_back(cuts.back());
    cuts = std::move(kept);
}

// The bands [first, last) a range covers (a band of coarsened cuts may hold it partly).
std::pair<int, int> bandsOf(const std::vector<int64_t>& cuts, const IndexRange& range) {
    auto first = std::upper_bound(cuts.begin(), cuts.end(), range.begin) - cuts.begin() - 1;
    auto last = std::lower_bound(cuts.begin(), cuts.end(), range.end) - cuts.begin();
    return {static_cast<int>(first), static_cast<int>(last)};
}

// One block per pair of bands, row-major, not yet held by anyone.
void emptyBlocks(TensorBlocks& out) {
    const size_t rows = out.rowCuts.size() - 1, cols = out.colCuts.size() - 1;
    out.blocks.assign(rows * cols, {});
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
            TensorBlock& block = out.blocks[r * cols + c];
            block.rowBand = static_cast<int>(r);
            block.colBand = static_cast<int>(c);
            block.rows = {out.rowCuts[r], out.rowCuts[r + 1]};
            block.cols = {out.colCuts[c], out.colCuts[c + 1]};
        }
}

// Lists group `g` on every block inside its rows x columns ranges.
void addGroup(TensorBlocks& out, int g) {
    const ShardGroup& group = out.groups[static_cast<size_t>(g)];
    const int cols = static_cast<int>(out.colCuts.size()) - 1;
    for (const IndexRange& rr : out.rowSet(group)) {
        if (rr.size() == 0) continue;
        auto [r0, r1] = bandsOf(out.rowCuts, rr);
        for (const IndexRange& cr : out.colSet(group)) {
            if (cr.size() == 0) continue;
            auto [c0, c1] = bandsOf(out.colCuts, cr);
            for (int r = r0; r < r1; ++r)
                for (int c = c0; c < c1; ++c) {
                    TensorBlock& block = out.blocks[static_cast<size_t>(r * cols + c)];
                    block.groups.push_back(g);
                    block.hazard = block.hazard || group.hazard;
                }
        }
    }
}

void fillBlocks(TensorBlocks& out) {
    emptyBlocks(out);
    for (size_t g = 0; g < out.groups.size(); ++g)
        if (out.groups[g].inSlice) addGroup(out, static_cast<int>(g));
    for (TensorBlock& block : out.blocks) {  // a merged block may meet a group twice
        std::sort(block.groups.begin(), block.groups.end());
        block.groups.erase(std::unique(block.groups.begin(), block.groups.end()),
                           block.groups.end());
    }
}

void cutAndFill(TensorBlocks& out, const std::vector<int64_t>& shape) {
    auto extent = [&](int dim) { return dim < 0 ? int64_t{1} : shape[static_cast<size_t>(dim)]; };
    out.rowCuts = cutsAlong(out.groups, out.axes.rowDim, extent(out.axes.rowDim));
    out.colCuts = cutsAlong(out.groups, out.axes.colDim, extent(out.axes.colDim));
    auto bands = [](const std::vector<int64_t>& cuts) {
        return static_cast<int64_t>(cuts.size()) - 1;
    };
    out.exactBlockCount = bands(out.rowCuts) * bands(out.colCuts);
    while (bands(out.rowCuts) * bands(out.colCuts) > TensorBlocks::kMaxBlocks) {
        auto& larger = bands(out.rowCuts) >= bands(out.colCuts) ? out.rowCuts : out.colCuts;
        coarsen(larger, (bands(larger) + 1) / 2);
    }
    out.merged = bands(out.rowCuts) * bands(out.colCuts) < out.exactBlockCount;
    fillBlocks(out);
}

std::vector<int> shardMeshDimsOf(const std::vector<Placement>& placements) {
    std::vector<int> dims;
    for (size_t m = 0; m < placements.size(); ++m)
        if (placements[m].isShard()) dims.push_back(static_cast<int>(m));
    return dims;
}

// No DTensor: every rank of the world holds the whole tensor.
ShardGroup everyRank(const Scenario& scenario, const ParamSpec& spec) {
    ShardGroup group;
    for (int r = 0; r < scenario.worldSize; ++r) group.ranks.push_back(r);
    for (int64_t extent : spec.shape) group.layout.dims.push_back({IndexRange{0, extent}});
    return group;
}

void layOut(TensorBlocks& out, const Scenario& scenario, const ParamSpec& spec) {
    if (!spec.isDTensor()) {
        out.plainLocal = true;
        out.groups.push_back(everyRank(scenario, spec));
        return;
    }
    const Mesh* mesh = scenario.findMesh(spec.mesh);
    if (!mesh) throw std::invalid_argument("unknown mesh '" + spec.mesh + "'");
    if (spec.placements->size() != mesh->shape.size())
        throw std::invalid_argument("placements do not match the mesh's dims");
    out.shardMeshDims = shardMeshDimsOf(*spec.placements);
    out.groups = shardGroups(spec, *mesh, out.shardMeshDims);
    markHazards(out.groups, *mesh, out.shardMeshDims, out.hazardCodes);
}

// The caller's axes when they name distinct dims of this param, else the default.
TensorAxes validAxes(TensorAxes axes, const ParamSpec& spec) {
    auto fits = [&](int dim) { return dim >= -1 && dim < spec.ndim(); };
    bool distinct = axes.rowDim != axes.colDim || axes.rowDim < 0;
    bool used = axes.colDim >= 0 || spec.ndim() == 0;  // columns first, as 1-D params show
    if (!fits(axes.rowDim) || !fits(axes.colDim) || !distinct || !used) {
        auto slice = std::move(axes.slice);
        axes = TensorAxes::defaultFor(spec);
        axes.slice = std::move(slice);
    }
    axes.slice.resize(spec.shape.size(), 0);
    for (size_t d = 0; d < axes.slice.size(); ++d)
        axes.slice[d] =
            std::clamp<int64_t>(axes.slice[d], 0, std::max<int64_t>(spec.shape[d] - 1, 0));
    return axes;
}

}  // namespace

TensorAxes TensorAxes::defaultFor(const ParamSpec& param) {
    TensorAxes axes;
    axes.colDim = param.ndim() >= 1 ? param.ndim() - 1 : -1;
    axes.rowDim = param.ndim() >= 2 ? param.ndim() - 2 : -1;
    axes.slice.assign(param.shape.size(), 0);
    return axes;
}

IndexSet TensorBlocks::rowSet(const ShardGroup& group) const {
    return setAlong(group.layout, axes.rowDim);
}

IndexSet TensorBlocks::colSet(const ShardGroup& group) const {
    return setAlong(group.layout, axes.colDim);
}

std::vector<int> TensorBlocks::ranksOf(const TensorBlock& block) const {
    std::vector<int> ranks;
    for (int g : block.groups) {
        const auto& held = groups[static_cast<size_t>(g)].ranks;
        ranks.insert(ranks.end(), held.begin(), held.end());
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::vector<std::string> layoutHazardCodes(const Plan& plan, const PlanIndex& index, int param) {
    std::vector<std::string> found;
    if (param < 0 || static_cast<size_t>(param) >= index.params.size()) return found;
    for (int position : index.params[static_cast<size_t>(param)].diagnostics) {
        const std::string& code = plan.diagnostics.at(static_cast<size_t>(position)).code;
        bool layout =
            std::find(kLayoutHazards.begin(), kLayoutHazards.end(), code) != kLayoutHazards.end();
        if (layout && !hasCode(found, code)) found.push_back(code);
    }
    return found;
}

TensorBlocks computeTensorBlocks(const Scenario& scenario, int param, const TensorAxes& axes,
                                 const std::vector<std::string>& hazardCodes) {
    TensorBlocks out;
    if (param < 0 || static_cast<size_t>(param) >= scenario.params.size()) return out;
    const ParamSpec& spec = scenario.params[static_cast<size_t>(param)];
    out.param = param;
    out.axes = validAxes(axes, spec);
    out.hazardCodes = hazardCodes;
    try {
        layOut(out, scenario, spec);
    } catch (const std::exception& e) {  // e.g. a shard dim past the tensor's dims
        out.error = e.what();
        out.groups.clear();
        return out;
    }
    markSlice(out.groups, out.axes);
    cutAndFill(out, spec.shape);
    return out;
}

}  // namespace hsdp
