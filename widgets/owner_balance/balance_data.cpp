// SPDX-License-Identifier: Apache-2.0
#include "owner_balance/balance_data.h"

#include <algorithm>

#include "plan/load_imbalance.h"
#include "plan/ownership.h"
#include "plan/replica_count.h"

namespace hsdp {

namespace {

int64_t paramNumel(const Scenario& scenario, int param) {
    return scenario.params.at(static_cast<size_t>(param)).numel();
}

BatchRef batchOfParam(const Plan& plan, int param) {
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const auto& batches = plan.groups[g].batches;
        for (size_t b = 0; b < batches.size(); ++b)
            if (std::find(batches[b].params.begin(), batches[b].params.end(), param) !=
                batches[b].params.end())
                return {static_cast<int>(g), static_cast<int>(b)};
    }
    return {};
}

// The first batch of groups [first, last), or none.
BatchRef firstBatchIn(const Plan& plan, size_t first, size_t last) {
    for (size_t g = first; g < last; ++g)
        if (!plan.groups[g].batches.empty()) return {static_cast<int>(g), 0};
    return {};
}

// The batch that shows the worst owner imbalance of groups [first, last).
BatchRef worstBatchIn(const Plan& plan, size_t first, size_t last) {
    std::optional<OwnerImbalance> worst;
    for (size_t g = first; g < last; ++g)
        for (const OwnerImbalance& place : ownerImbalances(plan.groups[g], static_cast<int>(g)))
            if (!worst || place.ratio > worst->ratio) worst = place;
    if (worst) return {worst->group, std::max(worst->batch, 0)};
    return firstBatchIn(plan, first, last);
}

}  // namespace

CoordBalance coordBalance(const Scenario& scenario, const Batch& batch) {
    CoordBalance out;
    out.coords.reserve(batch.loads.size());
    for (size_t c = 0; c < batch.loads.size(); ++c) out.coords.push_back(batch.loadCoord(c));
    out.numel = batch.loads.dense();
    // Owned params only: a frozen one (no owner) is no coordinate's load.
    for (const auto& [p, coord] : batch.owner) {
        int64_t numel = paramNumel(scenario, p);
        out.total += numel;
        out.largestParam = std::max(out.largestParam, numel);
    }
    if (!out.coords.empty())
        out.mean = static_cast<double>(out.total) / static_cast<double>(out.coords.size());
    out.lowerBound = std::max(static_cast<double>(out.largestParam), out.mean);
    out.imbalance = loadImbalance(batch.loads);
    return out;
}

CoordBalance coordBalance(const Scenario& scenario, const Group& group) {
    CoordBalance out;
    const Batch* widest = nullptr;  // the batch with the most coordinates names them
    std::vector<int64_t> sums;
    for (const Batch& batch : group.batches) {
        if (!widest || batch.loads.size() > widest->loads.size()) widest = &batch;
        sums.resize(std::max(sums.size(), batch.loads.size()), 0);
        for (size_t c = 0; c < batch.loads.leading().size(); ++c)
            sums[c] += batch.loads.leading()[c];
        for (const auto& [p, coord] : batch.owner) {
            const int64_t numel = paramNumel(scenario, p);
            out.total += numel;
            out.largestParam = std::max(out.largestParam, numel);
        }
    }
    if (!widest) return out;
    for (size_t c = 0; c < sums.size(); ++c) out.coords.push_back(widest->loadCoord(c));
    out.numel = sums;
    if (!out.coords.empty())
        out.mean = static_cast<double>(out.total) / static_cast<double>(out.coords.size());
    out.lowerBound = std::max(static_cast<double>(out.largestParam), out.mean);
    out.imbalance = loadImbalance(OwnerLoads(std::move(sums)));
    return out;
}

ComputeLoads::ComputeLoads(std::vector<int64_t> replicateSizes, std::vector<int64_t> shardSizes)
    : replicateSizes_(std::move(replicateSizes)),
      shardSizes_(std::move(shardSizes)),
      shards_(static_cast<size_t>(std::max<int64_t>(coordinateCount(shardSizes_), 1))) {
    const auto n = static_cast<size_t>(coordinateCount(replicateSizes_)) * shards_;
    count_.assign(n, 0);
    numel_.assign(n, 0);
    rankStart_.assign(n + 1, 0);
}

Coord ComputeLoads::replicateCoord(size_t i) const {
    return coordinateAt(static_cast<int64_t>(i / shards_), replicateSizes_);
}

Coord ComputeLoads::shardCoord(size_t i) const {
    return coordinateAt(static_cast<int64_t>(i % shards_), shardSizes_);
}

std::span<const int> ComputeLoads::ranks(size_t i) const {
    return {ranks_.data() + rankStart_[i], rankStart_[i + 1] - rankStart_[i]};
}

std::vector<int> ComputeLoads::rankList(size_t i) const {
    const auto span = ranks(i);
    return {span.begin(), span.end()};
}

int ComputeLoads::entryOfRanks(const std::vector<int>& ranks) const {
    for (size_t i = 0; !ranks.empty() && i < size(); ++i)
        if (std::ranges::equal(this->ranks(i), ranks)) return static_cast<int>(i);
    return -1;
}

void ComputeLoads::add(size_t i, int64_t numel) {
    ++count_[i];
    numel_[i] += numel;
}

void ComputeLoads::setRanks(const std::vector<int>& ranks, const std::vector<size_t>& entries) {
    std::fill(rankStart_.begin(), rankStart_.end(), 0);
    for (size_t entry : entries) ++rankStart_[entry + 1];
    for (size_t i = 1; i < rankStart_.size(); ++i) rankStart_[i] += rankStart_[i - 1];
    ranks_.assign(ranks.size(), 0);
    std::vector<size_t> next(rankStart_.begin(), rankStart_.end() - 1);
    for (size_t k = 0; k < ranks.size(); ++k) ranks_[next[entries[k]]++] = ranks[k];
    for (size_t i = 0; i < size(); ++i)
        std::sort(ranks_.begin() + static_cast<std::ptrdiff_t>(rankStart_[i]),
                  ranks_.begin() + static_cast<std::ptrdiff_t>(rankStart_[i + 1]));
}

namespace {

// The Newton–Schulz work of `batches` (gathered ones, of one group and one
// replicate shape) added up per (replicate, shard) coordinate.
ComputeLoads computeLoadsOf(const Scenario& scenario, const Group& group,
                            const std::vector<const Batch*>& batches,
                            std::optional<int64_t> replicaCount) {
    if (batches.empty()) return {};
    const Batch& first = *batches.front();
    std::vector<int64_t> shardSizes;
    for (int d : group.shardMeshDims) shardSizes.push_back(group.meshShape[static_cast<size_t>(d)]);
    const auto shards = static_cast<size_t>(coordinateCount(shardSizes));
    ComputeLoads loads(first.replicateSizes, shardSizes);
    for (const Batch* batch : batches)
        for (const ShardCompute& compute : batch->shardCompute) {
            const auto replicate =
                static_cast<size_t>(coordinateIndex(compute.replicateCoord, first.replicateSizes));
            for (const auto& [param, coord] : compute.computeCoord)
                loads.add(
                    replicate * shards + static_cast<size_t>(coordinateIndex(coord, shardSizes)),
                    paramNumel(scenario, param));
        }
    const Batch& batch = first;
    // Each rank's entry by index arithmetic (coordinateIndex of its replicate
    // and shard coordinates), with no coordinate built: 131,072 ranks a batch.
    std::vector<size_t> entries;
    entries.reserve(group.meshRanks.size());
    Coord meshCoord(group.meshShape.size(), 0);
    for (size_t r = 0; r < group.meshRanks.size(); ++r) {  // row-major odometer
        const int64_t replicate =
            replicateIndex(meshCoord, group.replicateMeshDims, batch.replicateSizes, replicaCount);
        int64_t shard = 0;
        for (size_t i = 0; i < group.shardMeshDims.size(); ++i)
            shard = shard * shardSizes[i] + meshCoord[static_cast<size_t>(group.shardMeshDims[i])];
        entries.push_back(static_cast<size_t>(replicate) * shards + static_cast<size_t>(shard));
        for (size_t d = meshCoord.size(); d-- > 0;) {
            if (++meshCoord[d] < group.meshShape[d]) break;
            meshCoord[d] = 0;
        }
    }
    loads.setRanks(group.meshRanks, entries);
    return loads;
}

}  // namespace

ComputeLoads computeLoads(const Scenario& scenario, const Group& group, const Batch& batch,
                          std::optional<int64_t> replicaCount) {
    if (!batch.isShard) return {};
    return computeLoadsOf(scenario, group, {&batch}, replicaCount);
}

ComputeLoads computeLoads(const Scenario& scenario, const Group& group,
                          std::optional<int64_t> replicaCount) {
    std::vector<const Batch*> gathered;
    for (const Batch& batch : group.batches)
        if (batch.isShard && batch.replicateSizes == group.batches.front().replicateSizes)
            gathered.push_back(&batch);
    return computeLoadsOf(scenario, group, gathered, replicaCount);
}

std::vector<int> ranksAtCoordinate(const Group& group, const Coord& coord,
                                   std::optional<int64_t> replicaCount) {
    std::vector<int> ranks;
    Coord meshCoord(group.meshShape.size(), 0);
    for (int rank : group.meshRanks) {
        if (replicateCoordinate(meshCoord, group.replicateMeshDims, replicaCount) == coord)
            ranks.push_back(rank);
        for (size_t d = meshCoord.size(); d-- > 0;) {  // row-major odometer
            if (++meshCoord[d] < group.meshShape[d]) break;
            meshCoord[d] = 0;
        }
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

std::optional<Coord> replicateCoordinateOf(const Group& group, int rank,
                                           std::optional<int64_t> replicaCount) {
    const auto it = std::find(group.meshRanks.begin(), group.meshRanks.end(), rank);
    if (it == group.meshRanks.end()) return std::nullopt;
    const Coord meshCoord = coordinateAt(it - group.meshRanks.begin(), group.meshShape);
    return replicateCoordinate(meshCoord, group.replicateMeshDims, replicaCount);
}

int coordinateOfRanks(const Group& group, const CoordBalance& balance,
                      const std::vector<int>& ranks, std::optional<int64_t> replicaCount) {
    if (ranks.empty()) return -1;
    const auto coord = replicateCoordinateOf(group, ranks.front(), replicaCount);
    if (!coord) return -1;
    const auto it = std::find(balance.coords.begin(), balance.coords.end(), *coord);
    if (it == balance.coords.end() || ranksAtCoordinate(group, *it, replicaCount) != ranks)
        return -1;
    return static_cast<int>(it - balance.coords.begin());
}

BatchRef worstBatch(const Plan& plan) {
    return worstBatchIn(plan, 0, plan.groups.size());
}

BatchRef worstBatch(const Plan& plan, int worstGroup, int worstBatch) {
    if (worstGroup >= 0 && static_cast<size_t>(worstGroup) < plan.groups.size())
        return {worstGroup, std::max(worstBatch, 0)};
    return firstBatchIn(plan, 0, plan.groups.size());
}

const Batch* batchAt(const Plan& plan, BatchRef ref) {
    if (!ref.isValid() || static_cast<size_t>(ref.group) >= plan.groups.size()) return nullptr;
    const auto& batches = plan.groups[static_cast<size_t>(ref.group)].batches;
    if (static_cast<size_t>(ref.batch) >= batches.size()) return nullptr;
    return &batches[static_cast<size_t>(ref.batch)];
}

BatchRef balanceBatch(const Plan& plan, const SelectionState& selection, BatchRef worst) {
    BatchRef picked{selection.group, selection.batch};
    if (batchAt(plan, picked)) return picked;
    if (!selection.params.empty()) {
        BatchRef ofParam = batchOfParam(plan, selection.params.front());
        if (ofParam.isValid()) return ofParam;
    }
    if (selection.group >= 0 && static_cast<size_t>(selection.group) < plan.groups.size()) {
        // A group alone: its worst batch.
        auto group = static_cast<size_t>(selection.group);
        BatchRef inGroup = worstBatchIn(plan, group, group + 1);
        if (inGroup.isValid()) return inGroup;
    }
    return worst;
}

}  // namespace hsdp
