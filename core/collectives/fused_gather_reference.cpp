// SPDX-License-Identifier: Apache-2.0
// The reference's fused all-gather as written (reference mode): see fused_gather.h.
#include <sstream>

#include "collectives/fused_gather.h"
#include "runtime/memory_ledger.h"
#include "tensor/packing.h"
#include "types/geometry.h"
#include "types/scenario.h"
#include "verify/verify.h"

namespace hsdp {

namespace {

// The packed element count of every item's shard at `coord` for each active
// axis, following the reference's shape evolution.
std::vector<int64_t> packedTotals(const GatherSetup& setup, const std::vector<GatherItem>& items,
                                  const Coord& coord) {
    const auto& meshShape = setup.mesh->shape;
    const int es = dtypeSize(items.front().dtype);
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& item : items)
        shapes.push_back(shardLayout(item.shape, item.placements, meshShape, coord).localShape());
    std::vector<int64_t> totals;
    for (auto [m, d] : setup.shardAxes) {
        if (meshShape[size_t(m)] <= 1) continue;
        int64_t total = 0;
        for (auto& s : shapes) {
            total += paddedElements(shapeNumel(s), setup.alignmentBytes, es);
            s[size_t(d)] *= meshShape[size_t(m)];
        }
        totals.push_back(total);
    }
    return totals;
}

}  // namespace

std::vector<int64_t> referenceGatheredShape(const GatherItem& item,
                                            const std::vector<int64_t>& meshShape,
                                            const Coord& coord,
                                            const std::vector<std::pair<int, int>>& shardAxes) {
    auto shape = shardLayout(item.shape, item.placements, meshShape, coord).localShape();
    for (auto [m, d] : shardAxes)
        if (meshShape[size_t(m)] > 1) shape[size_t(d)] *= meshShape[size_t(m)];
    return shape;
}

std::string referenceGatherPreflight(const GatherSetup& setup,
                                     const std::vector<GatherItem>& items) {
    if (items.empty()) return {};
    const Mesh& mesh = *setup.mesh;
    std::vector<int64_t> sizes;
    for (auto [m, d] : setup.shardAxes) sizes.push_back(mesh.shape[size_t(m)]);
    // Every coordinate of this shard group; compare each with the member at
    // coordinate 0 of its line along each active axis.
    for (const auto& sub : allCoordinates(sizes)) {
        Coord c = setup.coord;
        for (size_t a = 0; a < sizes.size(); ++a) c[size_t(setup.shardAxes[a].first)] = sub[a];
        const auto mine = packedTotals(setup, items, c);
        size_t active = 0;
        for (auto [m, d] : setup.shardAxes) {
            if (mesh.shape[size_t(m)] <= 1) continue;
            Coord first = c;
            first[size_t(m)] = 0;
            const auto theirs = packedTotals(setup, items, first);
            if (theirs[active] != mine[active]) {
                std::ostringstream os;
                os << "the reference's all_gather_into_tensor over mesh dim " << m << " (ranks "
                   << shapeText([&, dim = m] {  // (a structured binding: clang 14 captures none)
                          std::vector<int64_t> r;
                          for (int x : mesh.groupAlong(dim, c)) r.push_back(x);
                          return r;
                      }())
                   << ") gets unequal packed sizes: rank " << mesh.rankAt(first) << " packs "
                   << theirs[active] << " elements, rank " << mesh.rankAt(c) << " packs "
                   << mine[active] << "; Gloo fails the transfer (size mismatch)";
                return os.str();
            }
            ++active;
        }
    }
    return {};
}

namespace {

void gatherAxisReference(RankContext& ctx, const GatherSetup& setup,
                         const std::vector<GatherItem>& items, int m, int d,
                         std::vector<Tensor>& cur) {
    const Mesh& mesh = *setup.mesh;
    Communicator& comm = ctx.group(mesh.groupAlong(m, setup.coord));
    const DType wire =
        items.front().dtype;  // the reference packs everything in the first tensor's dtype
    const int es = dtypeSize(wire);
    std::vector<Tensor> gi;
    std::vector<int64_t> lengths, capacities;
    std::vector<int> params;
    for (size_t i = 0; i < items.size(); ++i) {
        gi.push_back(movedimTo0(cur[i], d));
        lengths.push_back(gi[i].numel() * es);
        capacities.push_back(paddedElements(gi[i].numel(), setup.alignmentBytes, es) * es);
        params.push_back(items[i].param);
    }
    const PackLayout pack = packLayout(lengths, capacities);
    auto send = poisonBuffer(pack.total);  // padding is never zeroed ("never read")
    const MemoryCharge sendCharge(MemoryKind::GatherBuffer, int64_t(send.size()));
    for (size_t i = 0; i < items.size(); ++i)
        encodeTensor(gi[i], wire, send.data() + pack.offset[i]);
    const size_t n = size_t(comm.size());
    std::vector<std::byte> out(size_t(pack.total) * n);
    const MemoryCharge outCharge(MemoryKind::GatherBuffer, int64_t(out.size()));
    CollectiveLabel label = setup.label;
    label.meshDim = m;
    label.params = params;
    label.segments = pack.segments(params);
    comm.allGather(send.data(), out.data(), size_t(pack.total), label);
    // Unpack with this rank's own metadata, rank-major in process-group order.
    for (size_t i = 0; i < items.size(); ++i) {
        std::vector<int64_t> shape = gi[i].shape;
        shape[0] *= int64_t(n);
        Tensor whole(shape);
        const int64_t actual = gi[i].numel();
        for (size_t q = 0; q < n; ++q) {
            Tensor part = decodeTensor(out.data() + q * size_t(pack.total) + size_t(pack.offset[i]),
                                       wire, {actual});
            std::copy(part.data.begin(), part.data.end(), whole.data.begin() + int64_t(q) * actual);
        }
        cur[i] = movedimFrom0(whole, d);
    }
}

}  // namespace

GatherResult fusedGatherReference(RankContext& ctx, const GatherSetup& setup,
                                  const std::vector<GatherItem>& items) {
    GatherResult result;
    if (items.empty()) return result;
    result.error = referenceGatherPreflight(setup, items);
    if (!result.ok()) return result;
    std::vector<Tensor> cur;
    for (const auto& item : items) cur.push_back(*item.local);
    for (auto [m, d] : setup.shardAxes) {
        if (setup.mesh->shape[size_t(m)] <= 1) continue;
        gatherAxisReference(ctx, setup, items, m, d, cur);
    }
    for (auto& t : cur) result.full.emplace_back(std::move(t));
    return result;
}

}  // namespace hsdp
