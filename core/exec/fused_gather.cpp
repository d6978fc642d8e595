#include "exec/fused_gather.h"

#include <algorithm>
#include <limits>

#include "exec/packing.h"
#include "model/geometry.h"

namespace hsdp {

std::vector<int64_t> memberCoords(const Communicator& comm, const Mesh& mesh, int dim) {
    std::vector<int64_t> coords;
    for (int r : comm.ranks()) coords.push_back(mesh.coordinateOf(r).value().at(size_t(dim)));
    return coords;
}

namespace {

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

AxisGeometry axisGeometry(const GatherSetup& setup, const std::vector<GatherItem>& items, int m, int d) {
    const auto& meshShape = setup.mesh->shape;
    AxisGeometry geo;
    for (const auto& item : items) {
        std::vector<IndexSet> rows;
        Coord cj = setup.coord;
        for (int64_t j = 0; j < meshShape[size_t(m)]; ++j) {
            cj[size_t(m)] = j;
            rows.push_back(partialLayout(item.shape, item.placements, meshShape, cj, m + 1).dims[size_t(d)]);
        }
        geo.memberRows.push_back(std::move(rows));
        geo.targetRows.push_back(
            partialLayout(item.shape, item.placements, meshShape, setup.coord, m).dims[size_t(d)]);
    }
    return geo;
}

void gatherAxisCorrected(RankContext& ctx, const GatherSetup& setup, const std::vector<GatherItem>& items,
                         int m, int d, std::vector<Tensor>& cur) {
    const Mesh& mesh = *setup.mesh;
    Communicator& comm = ctx.group(mesh.groupAlong(m, setup.coord));
    const auto coords = memberCoords(comm, mesh, m);
    const AxisGeometry geo = axisGeometry(setup, items, m, d);
    std::vector<int64_t> lengths, capacities;
    std::vector<int> params;
    for (size_t i = 0; i < items.size(); ++i) {
        const int es = dtypeSize(items[i].dtype);
        const int64_t rest = restNumel(cur[i], d);
        int64_t widest = 0;  // every member reserves the largest member's padded size
        for (const auto& rows : geo.memberRows[i])
            widest = std::max(widest, paddedElements(indexCount(rows) * rest, setup.alignmentBytes, es));
        lengths.push_back(cur[i].numel() * es);
        capacities.push_back(widest * es);
        params.push_back(items[i].param);
    }
    const PackLayout pack = packLayout(lengths, capacities);
    auto send = poisonBuffer(pack.total);
    std::vector<Tensor> moved;
    for (size_t i = 0; i < items.size(); ++i) {
        moved.push_back(movedimTo0(cur[i], d));
        encodeTensor(moved[i], items[i].dtype, send.data() + pack.offset[i]);
    }
    std::vector<std::byte> out(size_t(pack.total) * size_t(comm.size()));
    CollectiveLabel label = setup.label;
    label.meshDim = m;
    label.params = params;
    label.segments = pack.segments(params);
    comm.allGather(send.data(), out.data(), size_t(pack.total), label);
    for (size_t i = 0; i < items.size(); ++i) {
        std::vector<int64_t> shape = moved[i].shape;
        shape[0] = indexCount(geo.targetRows[i]);
        Tensor whole(shape, std::numeric_limits<float>::quiet_NaN());
        for (size_t q = 0; q < coords.size(); ++q) {
            const IndexSet& rows = geo.memberRows[i][size_t(coords[q])];
            std::vector<int64_t> blockShape = shape;
            blockShape[0] = indexCount(rows);
            Tensor block = decodeTensor(out.data() + q * size_t(pack.total) + size_t(pack.offset[i]),
                                        items[i].dtype, blockShape);
            Positions pos{positionsIn(geo.targetRows[i], rows)};
            for (size_t k = 1; k < shape.size(); ++k) pos.push_back(iota(shape[k]));
            insert(whole, pos, block);
        }
        cur[i] = movedimFrom0(whole, d);
    }
}

}  // namespace

GatherResult fusedGatherCorrected(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items) {
    GatherResult result;
    for (const auto& item : items) result.full.push_back(*item.local);
    if (items.empty()) return result;
    for (auto it = setup.shardAxes.rbegin(); it != setup.shardAxes.rend(); ++it) {
        auto [m, d] = *it;
        if (setup.mesh->shape[size_t(m)] <= 1) continue;
        gatherAxisCorrected(ctx, setup, items, m, d, result.full);
    }
    return result;
}

}  // namespace hsdp
