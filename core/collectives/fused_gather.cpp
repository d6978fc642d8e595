// SPDX-License-Identifier: Apache-2.0
#include "collectives/fused_gather.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "collectives/detail/gather_buffer_pool.h"
#include "runtime/memory_ledger.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"
#include "types/geometry.h"
#include "types/scenario.h"

namespace hsdp {

std::vector<int64_t> memberCoords(const Communicator& comm, const Mesh& mesh, int dim) {
    std::vector<int64_t> coords;
    for (int r : comm.ranks()) coords.push_back(mesh.coordinateOf(r).value().at(size_t(dim)));
    return coords;
}

AxisRows gatherAxisRows(const std::vector<int64_t>& shape, const std::vector<Placement>& placements,
                        const std::vector<int64_t>& meshShape, const Coord& coord, int m, int d) {
    AxisRows rows;
    Coord cj = coord;
    for (int64_t j = 0; j < meshShape[size_t(m)]; ++j) {
        cj[size_t(m)] = j;
        rows.members.push_back(
            partialLayout(shape, placements, meshShape, cj, m + 1).dims[size_t(d)]);
    }
    rows.target = partialLayout(shape, placements, meshShape, coord, m).dims[size_t(d)];
    return rows;
}

namespace {

using Clock = std::chrono::steady_clock;

// Adds the time since `since` to `*slot` (when timing was asked) and restarts it.
void lap(GatherTimings* timings, double GatherTimings::*slot, Clock::time_point& since) {
    if (!timings) return;
    const auto now = Clock::now();
    timings->*slot += std::chrono::duration<double>(now - since).count();
    since = now;
}

int64_t restNumel(const std::vector<int64_t>& shape, int d) {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i)
        if (int(i) != d) n *= shape[i];
    return n;
}

// Per item, the rows (global indices along the gathered tensor dim) each mesh
// coordinate j along `m` holds before the gather, and what this rank holds after.
struct AxisGeometry {
    std::vector<std::vector<IndexSet>> memberRows;  // [item][j]
    std::vector<IndexSet> targetRows;               // [item]
};

AxisGeometry axisGeometry(const GatherSetup& setup, const std::vector<GatherItem>& items, int m,
                          int d) {
    AxisGeometry geo;
    for (const auto& item : items) {
        AxisRows rows =
            gatherAxisRows(item.shape, item.placements, setup.mesh->shape, setup.coord, m, d);
        geo.memberRows.push_back(std::move(rows.members));
        geo.targetRows.push_back(std::move(rows.target));
    }
    return geo;
}

// One all-gather's output: `members` slots of `slot` bytes, rank-major in
// group order, in a pooled buffer that the views handed out share.
struct GatheredBuffer {
    std::shared_ptr<float> storage;
    size_t slot = 0;

    std::byte* bytes() const { return reinterpret_cast<std::byte*>(storage.get()); }
    const std::byte* at(size_t member, size_t offset) const {
        return bytes() + member * slot + offset;
    }
};

// Each item's piece at `dst`, tensor dim d first, in the item's wire dtype.
// With d = 0 the rows are already first: the runs are encoded one after the
// other, with no intermediate tensor.
void encodePiece(const GatheredTensor& piece, int d, DType dtype, std::byte* dst) {
    if (d == 0) {
        for (const auto& run : piece.runs()) {
            encodeValues(dtype, run.data(), int64_t(run.size()), dst);
            dst += run.size() * size_t(dtypeSize(dtype));
        }
        return;
    }
    const Tensor moved = movedimTo0(piece.toTensor(), d);
    encodeValues(dtype, moved.data.data(), moved.numel(), dst);
}

// The slot layout: each member reserves the largest member's padded size.
PackLayout axisLayout(const GatherSetup& setup, const std::vector<GatherItem>& items,
                      const std::vector<GatheredTensor>& src, const AxisGeometry& geo, int d) {
    std::vector<int64_t> lengths, capacities;
    for (size_t i = 0; i < items.size(); ++i) {
        const int es = dtypeSize(items[i].dtype);
        const int64_t rest = restNumel(src[i].shape(), d);
        int64_t widest = 0;
        for (const auto& rows : geo.memberRows[i])
            widest =
                std::max(widest, paddedElements(indexCount(rows) * rest, setup.alignmentBytes, es));
        lengths.push_back(src[i].numel() * es);
        capacities.push_back(widest * es);
    }
    return packLayout(lengths, capacities);
}

// Packs straight into this rank's own slot of the gathered buffer, so the
// all-gather runs in place (no send buffer, no copy of it into the output);
// padding is poison, never zeroed.
void packAxis(const std::vector<GatherItem>& items, const std::vector<GatheredTensor>& src,
              const PackLayout& pack, int d, std::byte* mySlot) {
    for (size_t i = 0; i < items.size(); ++i) {
        std::byte* at = mySlot + pack.offset[i];
        encodePiece(src[i], d, items[i].dtype, at);
        fillPoison(at + pack.length[i], pack.capacity[i] - pack.length[i]);
    }
}

// The members holding rows, in target order, when each holds one run and
// together they tile the target (plain and uneven shards); nullopt when the
// rows interleave (strided and nested shards).
std::optional<std::vector<size_t>> tilingOrder(const std::vector<int64_t>& shape,
                                               const IndexSet& target,
                                               const std::vector<const IndexSet*>& blocks) {
    if (target.size() != 1) return std::nullopt;
    std::vector<std::pair<int64_t, size_t>> firstRows;  // (first target row, member)
    for (size_t q = 0; q < blocks.size(); ++q) {
        if (indexCount(*blocks[q]) == 0) continue;
        if (blocks[q]->size() != 1) return std::nullopt;
        firstRows.push_back({(*blocks[q])[0].begin - target[0].begin, q});
    }
    std::sort(firstRows.begin(), firstRows.end());
    std::vector<size_t> order;
    int64_t next = 0;
    for (const auto& [first, q] : firstRows) {
        if (first != next) return std::nullopt;
        next += indexCount(*blocks[q]);
        order.push_back(q);
    }
    if (next != shape[0]) return std::nullopt;
    return order;
}

// Tiled blocks: f32 blocks at float-aligned offsets are handed out as views
// of the gathered buffer, one run per member, nothing copied; other dtypes
// are decoded into one owned tensor, block after block.
GatheredTensor unpackTiled(const GatheredBuffer& out, size_t offset, DType dtype,
                           const std::vector<int64_t>& shape,
                           const std::vector<const IndexSet*>& blocks,
                           const std::vector<size_t>& order) {
    const int64_t rest = restNumel(shape, 0);
    const bool viewable =
        dtype == DType::F32 && out.slot % sizeof(float) == 0 && offset % sizeof(float) == 0;
    if (viewable) {
        std::vector<std::span<const float>> runs;
        for (size_t q : order)
            runs.emplace_back(reinterpret_cast<const float*>(out.at(q, offset)),
                              size_t(indexCount(*blocks[q]) * rest));
        return GatheredTensor(shape, out.storage, std::move(runs));
    }
    Tensor whole;
    whole.shape = shape;
    whole.data.resize(size_t(shapeNumel(shape)));
    float* dst = whole.data.data();
    for (size_t q : order) {
        const int64_t count = indexCount(*blocks[q]) * rest;
        decodeValues(dtype, out.at(q, offset), count, dst);
        dst += count;
    }
    return GatheredTensor(std::move(whole));
}

// General unpack: every member's block scattered into place by geometry.
Tensor unpackScattered(const GatheredBuffer& out, size_t offset, DType dtype,
                       const std::vector<int64_t>& shape, const IndexSet& target,
                       const std::vector<const IndexSet*>& blocks) {
    Tensor whole(shape, std::numeric_limits<float>::quiet_NaN());
    for (size_t q = 0; q < blocks.size(); ++q) {
        std::vector<int64_t> blockShape = shape;
        blockShape[0] = indexCount(*blocks[q]);
        Tensor block = decodeTensor(out.at(q, offset), dtype, blockShape);
        Positions pos{positionsIn(target, *blocks[q])};
        for (size_t k = 1; k < shape.size(); ++k) pos.push_back(iota(shape[k]));
        insert(whole, pos, block);
    }
    return whole;
}

// Item i of the gathered buffer as the tensor this rank ends up with
// (`shape`: tensor dim d first), dim d moved back into place.
GatheredTensor unpackItem(const GatheredBuffer& out, size_t offset, DType dtype,
                          const std::vector<int64_t>& shape, const IndexSet& target,
                          const std::vector<const IndexSet*>& blocks, int d) {
    const auto order = tilingOrder(shape, target, blocks);
    GatheredTensor whole =
        order ? unpackTiled(out, offset, dtype, shape, blocks, *order)
              : GatheredTensor(unpackScattered(out, offset, dtype, shape, target, blocks));
    return d == 0 ? whole : GatheredTensor(movedimFrom0(whole.toTensor(), d));
}

// The gathered shape of each item, tensor dim d first.
std::vector<std::vector<int64_t>> gatheredShapes(const std::vector<GatheredTensor>& src,
                                                 const AxisGeometry& geo, int d) {
    std::vector<std::vector<int64_t>> shapes;
    for (size_t i = 0; i < src.size(); ++i) {
        std::vector<int64_t> shape{indexCount(geo.targetRows[i])};  // movedim(d, 0), gathered
        for (int k = 0; k < src[i].ndim(); ++k)
            if (k != d) shape.push_back(src[i].shape()[size_t(k)]);
        shapes.push_back(std::move(shape));
    }
    return shapes;
}

CollectiveLabel axisLabel(const GatherSetup& setup, const std::vector<GatherItem>& items,
                          const PackLayout& pack, int m) {
    std::vector<int> params;
    for (const auto& item : items) params.push_back(item.param);
    CollectiveLabel label = setup.label;
    label.meshDim = m;
    label.segments = pack.segments(params);
    label.params = std::move(params);
    return label;
}

// A pack or unpack around a gather: the gather's label without its buffer
// segments (a compute span moves nothing on the wire).
CollectiveLabel computeLabelOf(CollectiveLabel label) {
    label.segments.clear();
    return label;
}

struct AxisGathered {
    std::vector<GatheredTensor> pieces;
    std::shared_ptr<float> buffer;  // the receive buffer (counted on the memory ledger)
};

// One all-gather over mesh dim m rebuilding tensor dim d from `src`.
AxisGathered gatherAxisCorrected(RankContext& ctx, const GatherSetup& setup,
                                 const std::vector<GatherItem>& items, int m, int d,
                                 const std::vector<GatheredTensor>& src) {
    auto since = Clock::now();
    const double packStartUs = ctx.nowUs();
    const Mesh& mesh = *setup.mesh;
    Communicator& comm = ctx.group(mesh.groupAlong(m, setup.coord));
    const auto coords = memberCoords(comm, mesh, m);
    const AxisGeometry geo = axisGeometry(setup, items, m, d);
    const PackLayout pack = axisLayout(setup, items, src, geo, d);
    GatheredBuffer out;
    out.slot = size_t(pack.total);
    const size_t outBytes = out.slot * size_t(comm.size());
    out.storage =
        chargedStorage(GatherBufferPool::forThisThread().acquire((outBytes + 3) / sizeof(float)),
                       MemoryKind::GatherBuffer, int64_t(outBytes));
    std::byte* mySlot = out.bytes() + size_t(comm.rank()) * out.slot;
    packAxis(items, src, pack, d, mySlot);
    const CollectiveLabel label = axisLabel(setup, items, pack, m);
    lap(setup.timings, &GatherTimings::pack, since);
    const CollectiveLabel computeLabel = ctx.tracing() ? computeLabelOf(label) : CollectiveLabel();
    ctx.recordCompute("pack", computeLabel, packStartUs);
    comm.allGather(mySlot, out.bytes(), out.slot, label);
    lap(setup.timings, &GatherTimings::gather, since);
    const double unpackStartUs = ctx.nowUs();
    const auto shapes = gatheredShapes(src, geo, d);
    std::vector<GatheredTensor> gathered;
    gathered.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        std::vector<const IndexSet*> blocks;  // group order
        for (int64_t c : coords) blocks.push_back(&geo.memberRows[i][size_t(c)]);
        gathered.push_back(unpackItem(out, size_t(pack.offset[i]), items[i].dtype, shapes[i],
                                      geo.targetRows[i], blocks, d));
    }
    lap(setup.timings, &GatherTimings::unpack, since);
    ctx.recordCompute("unpack", computeLabel, unpackStartUs);
    return {std::move(gathered), std::move(out.storage)};
}

}  // namespace

GatherResult fusedGatherCorrected(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items) {
    GatherResult result;
    if (items.empty()) return result;
    // The first gather reads the shards in place (borrowed, they outlive the
    // call); later ones the previous result. Each receive buffer is held until
    // the next gather has read it, whether or not views of it remain, so its
    // lifetime does not depend on how the pieces were unpacked.
    AxisGathered cur;
    for (const auto& item : items)
        cur.pieces.emplace_back(item.local->shape, nullptr,
                                std::vector<std::span<const float>>{item.local->data});
    bool gathered = false;
    for (auto it = setup.shardAxes.rbegin(); it != setup.shardAxes.rend(); ++it) {
        auto [m, d] = *it;
        if (setup.mesh->shape[size_t(m)] <= 1) continue;
        cur = gatherAxisCorrected(ctx, setup, items, m, d, cur.pieces);
        gathered = true;
    }
    if (!gathered) {  // nothing to gather: own copies, never the borrowed shards
        cur.pieces.clear();
        for (const auto& item : items) cur.pieces.emplace_back(*item.local);
    }
    result.full = std::move(cur.pieces);
    result.buffer = std::move(cur.buffer);
    return result;
}

}  // namespace hsdp
