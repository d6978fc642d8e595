// SPDX-License-Identifier: Apache-2.0
#include "plan/ownership.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace hsdp {

namespace {

void sortForAssignment(std::vector<OwnerItem>& items) {
    std::sort(items.begin(), items.end(), [](const OwnerItem& a, const OwnerItem& b) {
        return a.numel != b.numel ? a.numel > b.numel : a.param < b.param;
    });
}

}  // namespace

OwnerAssignment assignOwners(std::vector<OwnerItem> items, int64_t coordCount) {
    OwnerAssignment out;
    if (coordCount <= 0) return out;
    const auto coords = static_cast<size_t>(coordCount);
    sortForAssignment(items);
    // No more items than coordinates, none empty: each takes the next idle
    // coordinate (least loaded, smallest index) and no heap is needed. At
    // 131,072 ranks a batch is a few dozen params over 16,384 coordinates.
    if (static_cast<int64_t>(items.size()) <= coordCount &&
        (items.empty() || items.back().numel > 0)) {
        out.owners.reserve(items.size());
        std::vector<int64_t> leading;
        leading.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            out.owners.emplace_back(items[i].param, static_cast<int64_t>(i));
            leading.push_back(items[i].numel);
        }
        out.loads = OwnerLoads(coords, std::move(leading));
        return out;
    }
    using Slot = std::pair<int64_t, int64_t>;  // (load, coordinate index)
    std::vector<Slot> initial;
    initial.reserve(static_cast<size_t>(coordCount));
    for (int64_t c = 0; c < coordCount; ++c) initial.emplace_back(0, c);
    // Already a valid min-heap (ascending), so construction is linear.
    std::priority_queue<Slot, std::vector<Slot>, std::greater<>> heap(std::greater<>{},
                                                                      std::move(initial));
    out.owners.reserve(items.size());
    std::vector<int64_t> loads(coords, 0);
    for (const auto& item : items) {
        auto [load, coord] = heap.top();
        heap.pop();
        out.owners.emplace_back(item.param, coord);
        loads[static_cast<size_t>(coord)] = load + item.numel;
        heap.emplace(load + item.numel, coord);
    }
    out.loads = OwnerLoads(std::move(loads));
    return out;
}

OwnerAssignment assignOwnersByScan(std::vector<OwnerItem> items, int64_t coordCount) {
    OwnerAssignment out;
    if (coordCount <= 0) return out;
    sortForAssignment(items);
    out.owners.reserve(items.size());
    std::vector<int64_t> loads(static_cast<size_t>(coordCount), 0);
    for (const auto& item : items) {
        size_t best = 0;
        for (size_t c = 1; c < loads.size(); ++c)
            if (loads[c] < loads[best]) best = c;  // strict: ties keep the smaller index
        out.owners.emplace_back(item.param, static_cast<int64_t>(best));
        loads[best] += item.numel;
    }
    out.loads = OwnerLoads(std::move(loads));
    return out;
}

int64_t coordinateCount(const std::vector<int64_t>& sizes) {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    return n;
}

int64_t coordinateIndex(const Coord& coord, const std::vector<int64_t>& sizes) {
    int64_t index = 0;
    for (size_t d = 0; d < sizes.size(); ++d) index = index * sizes[d] + coord[d];
    return index;
}

Coord coordinateAt(int64_t index, const std::vector<int64_t>& sizes) {
    Coord coord(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        coord[d] = index % sizes[d];
        index /= sizes[d];
    }
    return coord;
}

namespace {

// Newton-Schulz work of each replicate coordinate spread over the shard group
// by the same greedy rule (docs/plan.md §4, shard_compute). `owned` holds
// (replicate coordinate index, item) sorted by coordinate: only coordinates
// that own a param compute (plan.h).
void assignShardCompute(Batch& batch, const std::vector<std::pair<int64_t, OwnerItem>>& owned,
                        const std::vector<int64_t>& shardSizes) {
    int64_t shardCount = coordinateCount(shardSizes);
    batch.shardCompute.clear();
    for (size_t first = 0; first < owned.size();) {
        size_t last = first;
        std::vector<OwnerItem> items;
        for (; last < owned.size() && owned[last].first == owned[first].first; ++last)
            items.push_back(owned[last].second);
        ShardCompute sc;
        sc.replicateCoord = coordinateAt(owned[first].first, batch.replicateSizes);
        for (const auto& [param, shardIndex] : assignOwners(std::move(items), shardCount).owners)
            sc.computeCoord[param] = coordinateAt(shardIndex, shardSizes);
        batch.shardCompute.push_back(std::move(sc));
        first = last;
    }
}

}  // namespace

void assignBatchOwnership(Batch& batch, const std::vector<ParamSpec>& specs,
                          const std::vector<int64_t>& shardSizes) {
    int64_t coordCount = coordinateCount(batch.replicateSizes);
    std::vector<OwnerItem> items;
    for (int param : batch.params) {
        const ParamSpec& spec = specs.at(static_cast<size_t>(param));
        if (spec.requiresGrad) items.push_back({param, spec.numel()});  // frozen: no owner
    }
    auto assignment = assignOwners(items, coordCount);
    batch.owner.clear();
    std::vector<std::pair<int64_t, OwnerItem>> owned;  // (coordinate index, item)
    for (const auto& [param, coord] : assignment.owners) {
        batch.owner[param] = coordinateAt(coord, batch.replicateSizes);
        if (batch.isShard) owned.push_back({coord, {param, specs[size_t(param)].numel()}});
    }
    batch.loads = std::move(assignment.loads);
    // The greedy rule re-sorts its input, so the order inside a coordinate is irrelevant.
    std::sort(owned.begin(), owned.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    if (batch.isShard) assignShardCompute(batch, owned, shardSizes);
}

}  // namespace hsdp
