// SPDX-License-Identifier: Apache-2.0
#include "plan/hazards.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "plan/grouping.h"
#include "plan/load_imbalance.h"
#include "plan/ownership.h"

namespace hsdp {

ParamHazards findHazards(const ParamSpec& param, const std::vector<int64_t>& meshShape) {
    ParamHazards out;
    if (!param.placements) return out;
    const auto& placements = *param.placements;
    std::map<int, int64_t> shardProduct;  // normalised tensor dim -> product of mesh sizes
    std::map<int, int> plainSplits;       // tensor dim -> plain shards on mesh dims of size > 1
    for (size_t m = 0; m < placements.size() && m < meshShape.size(); ++m) {
        const Placement& p = placements[m];
        if (!p.isShard()) continue;
        int d = p.dim < 0 ? p.dim + param.ndim() : p.dim;
        int64_t size = meshShape[m];
        auto [it, inserted] = shardProduct.emplace(d, 1);
        it->second *= size;
        if (size <= 1) continue;
        if (p.kind == Placement::Kind::StridedShard)
            out.stridedShardChunk = true;
        else
            ++plainSplits[d];
    }
    for (const auto& [d, product] : shardProduct)
        if (d >= 0 && d < param.ndim() && param.shape[static_cast<size_t>(d)] % product != 0)
            out.unevenShard = true;
    for (const auto& [d, count] : plainSplits)
        if (count >= 2) out.nestedShardOrder = true;
    return out;
}

namespace {

bool lineSorted(const std::vector<int>& ranks, int64_t first, int64_t stride, int64_t length) {
    for (int64_t k = 1; k < length; ++k)
        if (ranks[size_t(first + k * stride)] < ranks[size_t(first + (k - 1) * stride)])
            return false;
    return true;
}

// The next coordinate with coord[along] == 0, row-major; false after the last.
bool nextLineStart(Coord& coord, const std::vector<int64_t>& shape, size_t along) {
    for (size_t d = shape.size(); d-- > 0;) {
        if (d == along) continue;
        if (++coord[d] < shape[d]) return true;
        coord[d] = 0;
    }
    return false;
}

}  // namespace

ShardRankOrder::ShardRankOrder(const Group& group, std::vector<int64_t> replicateSizes)
    : sizes_(std::move(replicateSizes)),
      unorderedAt_(static_cast<size_t>(coordinateCount(sizes_)), 0) {
    // Each line of the mesh along a shard dim, read in place from the
    // row-major rank list (no Mesh, no line vectors: 16,384 lines a dim at
    // 131,072 ranks).
    const std::vector<int64_t>& shape = group.meshShape;
    for (int dim : group.shardMeshDims) {
        const auto m = static_cast<size_t>(dim);
        if (shape[m] <= 1) continue;
        int64_t stride = 1;
        for (size_t d = m + 1; d < shape.size(); ++d) stride *= shape[d];
        Coord start(shape.size(), 0);
        do {
            if (!lineSorted(group.meshRanks, coordinateIndex(start, shape), stride, shape[m])) {
                anyUnordered_ = true;
                unorderedAt_[static_cast<size_t>(reducedIndex(group, start))] = 1;
            }
        } while (nextLineStart(start, shape, m));
    }
}

int64_t ShardRankOrder::reducedIndex(const Group& group, const Coord& meshCoord) const {
    int64_t index = 0;
    for (size_t j = 0; j < sizes_.size(); ++j) {
        const auto dim = static_cast<size_t>(group.replicateMeshDims.at(j));
        index = index * sizes_[j] + meshCoord[dim] % sizes_[j];
    }
    return index;
}

bool ShardRankOrder::hazard(const Coord* owner) const {
    if (!owner) return anyUnordered_;
    return unorderedAt_.at(static_cast<size_t>(coordinateIndex(*owner, sizes_))) != 0;
}

namespace {

std::string label(const ParamSpec& param) {
    return "#" + std::to_string(param.index) + " '" + param.name + "' " +
           placementsToString(*param.placements);
}

// The four structural hazards, each a flag of ParamHazards with its code and why.
struct HazardText {
    bool ParamHazards::*flag;
    std::string_view code;
    const char* why;
};

const HazardText kHazardTexts[] = {
    {&ParamHazards::unevenShard, codes::UnevenShard,
     "sharded dim not divisible by its shard count; the reference narrows with size // n and "
     "packs equal-size buffers"},
    {&ParamHazards::nestedShardOrder, codes::NestedShardOrder,
     "one tensor dim sharded by several mesh dims; the reference gathers the outer mesh dim "
     "first and reorders the rows"},
    {&ParamHazards::stridedShardChunk, codes::StridedShardChunk,
     "strided shard; the reference slices the update back ignoring the split factor"},
    {&ParamHazards::shardRankOrder, codes::ShardRankOrder,
     "a shard mesh dim's process group orders its ranks ascending, not in mesh order; the "
     "reference all-gathers in group order and places other ranks' rows"},
};

void reportOne(const ParamSpec& param, const ParamHazards& hazards, DiagnosticSink& sink) {
    for (const auto& h : kHazardTexts)
        if (hazards.*h.flag)
            sink.report(Severity::Warning, h.code, h.why, label(param), {param.index});
}

// Per param: its group, and its batch's owner entry (if any).
struct ParamPlace {
    const Group* group = nullptr;
    const Batch* batch = nullptr;
    const Coord* owner = nullptr;
};

std::vector<ParamPlace> placeParams(const std::vector<Group>& groups, size_t paramCount) {
    std::vector<ParamPlace> places(paramCount);
    for (const Group& g : groups) {
        for (int p : g.params) places[static_cast<size_t>(p)].group = &g;
        for (const Batch& b : g.batches) {
            for (int p : b.params) {
                auto& place = places[static_cast<size_t>(p)];
                place.batch = &b;
                auto owner = b.owner.find(p);
                place.owner = owner == b.owner.end() ? nullptr : &owner->second;
            }
        }
    }
    return places;
}

// One ShardRankOrder per group and replicate sizes, built when first asked for.
class ShardRankOrders {
public:
    bool hazard(const ParamPlace& place) {
        std::vector<int64_t> sizes;
        if (place.owner) sizes = place.batch->replicateSizes;
        auto key = std::make_pair(place.group, std::move(sizes));
        auto it = byGroup_.find(key);
        if (it == byGroup_.end())
            it = byGroup_.emplace(key, ShardRankOrder(*place.group, key.second)).first;
        return it->second.hazard(place.owner);
    }

private:
    std::map<std::pair<const Group*, std::vector<int64_t>>, ShardRankOrder> byGroup_;
};

}  // namespace

void reportParamHazards(const std::vector<Group>& groups, const std::vector<ParamSpec>& specs,
                        DiagnosticSink& sink) {
    // Walk params in index order so codes appear in a stable, data-driven order.
    const auto places = placeParams(groups, specs.size());
    ShardRankOrders shardRankOrders;
    for (size_t i = 0; i < specs.size(); ++i) {
        const Group* g = places[i].group;
        if (!g) continue;
        if (!isGathered(*g)) continue;
        ParamHazards h = findHazards(specs[i], g->meshShape);
        h.shardRankOrder = shardRankOrders.hazard(places[i]);
        reportOne(specs[i], h, sink);
    }
    for (size_t i = 0; i < specs.size(); ++i) {
        if (!places[i].group || specs[i].requiresGrad) continue;
        sink.report(Severity::Info, codes::FrozenParamNoOwner,
                    "frozen parameter (requires_grad false) gets no owner and no update",
                    "#" + std::to_string(i) + " '" + specs[i].name + "'", {specs[i].index});
    }
}

namespace {

std::string figures(const OwnerImbalance& place) {
    char text[96];
    std::snprintf(text, sizeof text, "max/mean %.2f (min %lld, max %lld)", place.ratio,
                  static_cast<long long>(place.minLoad), static_cast<long long>(place.maxLoad));
    return text;
}

std::vector<int> ownedParams(const Batch& batch) {
    std::vector<int> params;
    for (const auto& [p, coord] : batch.owner) params.push_back(p);
    return params;
}

}  // namespace

void reportOwnerImbalance(const std::vector<Group>& groups, DiagnosticSink& sink,
                          double maxOverMean) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", maxOverMean);
    const std::string headline = std::string("owner loads unbalanced (max/mean load > ") + limit +
                                 ", or an idle coordinate while another has load)";
    // The places ownerImbalances judges, the ones the plan's worst imbalance is
    // the highest of: per batch, then per group over its batches summed
    // (single-param batches each land on coordinate 0, so a group can be
    // skewed while no batch is).
    for (const OwnerImbalance& place : ownerImbalances(groups)) {
        if (!place.unbalanced(maxOverMean)) continue;
        const Group& g = groups[static_cast<size_t>(place.group)];
        if (!place.overGroup()) {
            sink.report(Severity::Warning, codes::OwnerImbalance, headline,
                        "group " + std::to_string(g.id) + " batch " + std::to_string(place.batch) +
                            " " + figures(place),
                        ownedParams(g.batches[static_cast<size_t>(place.batch)]));
            continue;
        }
        std::vector<int> groupOwned;
        for (const Batch& batch : g.batches) {
            auto owned = ownedParams(batch);
            groupOwned.insert(groupOwned.end(), owned.begin(), owned.end());
        }
        sink.report(Severity::Warning, codes::OwnerImbalance, headline,
                    "group " + std::to_string(g.id) + " over its " +
                        std::to_string(g.batches.size()) +
                        " batches (each restarts the greedy at zero) " + figures(place),
                    groupOwned);
    }
}

}  // namespace hsdp
