#include "collectives/fused_gather.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "model/geometry.h"
#include "model/scenario.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"

namespace hsdp {

std::vector<int64_t> memberCoords(const Communicator& comm, const Mesh& mesh, int dim) {
    std::vector<int64_t> coords;
    for (int r : comm.ranks()) coords.push_back(mesh.coordinateOf(r).value().at(size_t(dim)));
    return coords;
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

int64_t restNumel(const Tensor& t, int d) {
    int64_t n = 1;
    for (int i = 0; i < t.ndim(); ++i)
        if (i != d) n *= t.shape[size_t(i)];
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
    const auto& meshShape = setup.mesh->shape;
    AxisGeometry geo;
    for (const auto& item : items) {
        std::vector<IndexSet> rows;
        Coord cj = setup.coord;
        for (int64_t j = 0; j < meshShape[size_t(m)]; ++j) {
            cj[size_t(m)] = j;
            rows.push_back(
                partialLayout(item.shape, item.placements, meshShape, cj, m + 1).dims[size_t(d)]);
        }
        geo.memberRows.push_back(std::move(rows));
        geo.targetRows.push_back(
            partialLayout(item.shape, item.placements, meshShape, setup.coord, m).dims[size_t(d)]);
    }
    return geo;
}

// The buffers of one rank thread, reused across calls as the seed's
// buffer_cache does: a fresh vector per call costs a fill plus a page fault
// per 4 KiB page as Gloo writes into it, on loopback about as much as the
// transfer. `out` holds floats so f32 blocks append to tensors without a cast.
struct AxisBuffers {
    std::vector<std::byte> send;
    std::vector<float> out;
};

AxisBuffers& threadBuffers() {
    thread_local AxisBuffers buffers;
    return buffers;
}

// Each item's piece, tensor dim d first, packed into the thread's send buffer;
// each member reserves the largest member's padded size, padding is poison.
PackLayout packAxis(const GatherSetup& setup, const std::vector<GatherItem>& items,
                    const std::vector<const Tensor*>& src, const AxisGeometry& geo, int d) {
    std::vector<int64_t> lengths, capacities;
    for (size_t i = 0; i < items.size(); ++i) {
        const int es = dtypeSize(items[i].dtype);
        const int64_t rest = restNumel(*src[i], d);
        int64_t widest = 0;
        for (const auto& rows : geo.memberRows[i])
            widest =
                std::max(widest, paddedElements(indexCount(rows) * rest, setup.alignmentBytes, es));
        lengths.push_back(src[i]->numel() * es);
        capacities.push_back(widest * es);
    }
    const PackLayout pack = packLayout(lengths, capacities);
    auto& send = threadBuffers().send;
    if (send.size() < size_t(pack.total)) send.resize(size_t(pack.total));
    for (size_t i = 0; i < items.size(); ++i) {
        std::byte* at = send.data() + pack.offset[i];
        encodeTensor(d == 0 ? *src[i] : movedimTo0(*src[i], d), items[i].dtype, at);
        fillPoison(at + pack.length[i], pack.capacity[i] - pack.length[i]);
    }
    return pack;
}

// Appends `count` elements of `dtype` found `byteOffset` bytes into `out`.
void appendDecoded(std::vector<float>& dst, const std::vector<float>& out, size_t byteOffset,
                   DType dtype, int64_t count) {
    if (dtype == DType::F32 && byteOffset % sizeof(float) == 0) {
        const float* from = out.data() + byteOffset / sizeof(float);
        dst.insert(dst.end(), from, from + count);
        return;
    }
    const size_t old = dst.size();
    dst.resize(old + size_t(count));
    decodeValues(dtype, reinterpret_cast<const std::byte*>(out.data()) + byteOffset, count,
                 dst.data() + old);
}

// Fast unpack when the members' blocks are plain runs tiling the target in
// some order (plain and uneven shards): each block is appended once, no fill,
// no scatter. Empty result when the blocks do not tile (strided shards).
std::optional<Tensor> unpackTiled(const std::vector<float>& out, size_t slot, size_t offset,
                                  DType dtype, const std::vector<int64_t>& shape,
                                  const IndexSet& target,
                                  const std::vector<const IndexSet*>& blocks) {
    if (target.size() != 1) return std::nullopt;
    std::vector<std::pair<int64_t, size_t>> order;  // (first target row, member)
    for (size_t q = 0; q < blocks.size(); ++q) {
        if (indexCount(*blocks[q]) == 0) continue;
        if (blocks[q]->size() != 1) return std::nullopt;
        order.push_back({(*blocks[q])[0].begin - target[0].begin, q});
    }
    std::sort(order.begin(), order.end());
    const int64_t rest = shapeNumel(shape) / std::max<int64_t>(shape[0], 1);
    Tensor whole;
    whole.shape = shape;
    whole.data.reserve(size_t(shapeNumel(shape)));
    int64_t next = 0;
    for (const auto& [first, q] : order) {
        if (first != next) return std::nullopt;
        next += indexCount(*blocks[q]);
        if (next > shape[0]) return std::nullopt;
        appendDecoded(whole.data, out, q * slot + offset, dtype, indexCount(*blocks[q]) * rest);
    }
    if (next != shape[0]) return std::nullopt;
    return whole;
}

// General unpack: every member's block scattered into place by geometry.
Tensor unpackScattered(const std::vector<float>& out, size_t slot, size_t offset, DType dtype,
                       const std::vector<int64_t>& shape, const IndexSet& target,
                       const std::vector<const IndexSet*>& blocks) {
    Tensor whole(shape, std::numeric_limits<float>::quiet_NaN());
    for (size_t q = 0; q < blocks.size(); ++q) {
        std::vector<int64_t> blockShape = shape;
        blockShape[0] = indexCount(*blocks[q]);
        Tensor block = decodeTensor(
            reinterpret_cast<const std::byte*>(out.data()) + q * slot + offset, dtype, blockShape);
        Positions pos{positionsIn(target, *blocks[q])};
        for (size_t k = 1; k < shape.size(); ++k) pos.push_back(iota(shape[k]));
        insert(whole, pos, block);
    }
    return whole;
}

// One all-gather over mesh dim m rebuilding tensor dim d: reads `src`, then
// writes `cur` (which `src` may point into).
void gatherAxisCorrected(RankContext& ctx, const GatherSetup& setup,
                         const std::vector<GatherItem>& items, int m, int d,
                         const std::vector<const Tensor*>& src, std::vector<Tensor>& cur) {
    auto since = Clock::now();
    const Mesh& mesh = *setup.mesh;
    Communicator& comm = ctx.group(mesh.groupAlong(m, setup.coord));
    const auto coords = memberCoords(comm, mesh, m);
    const AxisGeometry geo = axisGeometry(setup, items, m, d);
    std::vector<std::vector<int64_t>> shapes;  // gathered, tensor dim d first
    for (size_t i = 0; i < items.size(); ++i) {
        std::vector<int64_t> shape{indexCount(geo.targetRows[i])};  // movedim(d, 0), gathered
        for (int k = 0; k < src[i]->ndim(); ++k)
            if (k != d) shape.push_back(src[i]->shape[size_t(k)]);
        shapes.push_back(std::move(shape));
    }
    const PackLayout pack = packAxis(setup, items, src, geo, d);
    std::vector<int> params;
    for (const auto& item : items) params.push_back(item.param);
    auto& out = threadBuffers().out;
    const size_t slot = size_t(pack.total), outBytes = slot * size_t(comm.size());
    if (out.size() * sizeof(float) < outBytes)
        out.resize((outBytes + sizeof(float) - 1) / sizeof(float));
    CollectiveLabel label = setup.label;
    label.meshDim = m;
    label.params = params;
    label.segments = pack.segments(params);
    lap(setup.timings, &GatherTimings::pack, since);
    comm.allGather(threadBuffers().send.data(), out.data(), slot, label);
    lap(setup.timings, &GatherTimings::gather, since);
    for (size_t i = 0; i < items.size(); ++i) {
        std::vector<const IndexSet*> blocks;  // group order
        for (int64_t c : coords) blocks.push_back(&geo.memberRows[i][size_t(c)]);
        const size_t offset = size_t(pack.offset[i]);
        auto whole =
            unpackTiled(out, slot, offset, items[i].dtype, shapes[i], geo.targetRows[i], blocks);
        if (!whole)
            whole = unpackScattered(out, slot, offset, items[i].dtype, shapes[i], geo.targetRows[i],
                                    blocks);
        cur[i] = d == 0 ? std::move(*whole) : movedimFrom0(*whole, d);
    }
    lap(setup.timings, &GatherTimings::unpack, since);
}

}  // namespace

GatherResult fusedGatherCorrected(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items) {
    GatherResult result;
    if (items.empty()) return result;
    result.full.resize(items.size());
    // The first gather reads the shards in place; later ones the previous result.
    std::vector<const Tensor*> src;
    for (const auto& item : items) src.push_back(item.local);
    for (auto it = setup.shardAxes.rbegin(); it != setup.shardAxes.rend(); ++it) {
        auto [m, d] = *it;
        if (setup.mesh->shape[size_t(m)] <= 1) continue;
        gatherAxisCorrected(ctx, setup, items, m, d, src, result.full);
        for (size_t i = 0; i < items.size(); ++i) src[i] = &result.full[i];
    }
    for (size_t i = 0; i < items.size(); ++i)
        if (src[i] == items[i].local) result.full[i] = *items[i].local;  // nothing to gather
    return result;
}

}  // namespace hsdp
