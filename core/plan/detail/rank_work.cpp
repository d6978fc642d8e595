// SPDX-License-Identifier: Apache-2.0
#include "plan/detail/rank_work.h"

#include <algorithm>
#include <map>
#include <string>

#include "plan/ownership.h"
#include "plan/replica_count.h"
#include "types/geometry.h"

namespace hsdp {

namespace {

// A param's local numel at every shard coordinate of its group (row-major
// index over the shard sizes). Replicate dims keep the whole piece, so the
// shard coordinate alone decides it; params of one group repeat a few
// shape/placement pairs, so each pair is laid out once.
class LocalNumels {
public:
    LocalNumels(const Group& group, const std::vector<ParamSpec>& specs) : group_(group) {
        for (int d : group.shardMeshDims) shardSizes_.push_back(group.meshShape[size_t(d)]);
        shardCount_ = coordinateCount(shardSizes_);
        for (int p : group.params) keyOf_[p] = keyFor(specs.at(size_t(p)));
    }

    int64_t shardCount() const { return shardCount_; }
    const std::vector<int64_t>& shardSizes() const { return shardSizes_; }
    int keyOf(int param) const { return keyOf_.at(param); }
    int keyCount() const { return static_cast<int>(locals_.size()); }
    const std::vector<int64_t>& local(int key) const { return locals_[size_t(key)]; }
    int64_t numel(int key) const { return numels_[size_t(key)]; }

private:
    int keyFor(const ParamSpec& spec) {
        std::string key;
        for (int64_t n : spec.shape) key += std::to_string(n) + ",";
        for (const Placement& p : *spec.placements) key += "|" + p.toString();
        auto [it, added] = index_.emplace(key, static_cast<int>(locals_.size()));
        if (added) layOut(spec);
        return it->second;
    }

    void layOut(const ParamSpec& spec) {
        std::vector<int64_t> local(static_cast<size_t>(shardCount_));
        for (int64_t s = 0; s < shardCount_; ++s) {
            Coord meshCoord(group_.meshShape.size(), 0);
            Coord shard = coordinateAt(s, shardSizes_);
            for (size_t i = 0; i < shard.size(); ++i)
                meshCoord[size_t(group_.shardMeshDims[i])] = shard[i];
            local[size_t(s)] =
                shardLayout(spec.shape, *spec.placements, group_.meshShape, meshCoord).localNumel();
        }
        locals_.push_back(std::move(local));
        numels_.push_back(spec.numel());
    }

    const Group& group_;
    std::vector<int64_t> shardSizes_;
    int64_t shardCount_ = 1;
    std::map<std::string, int> index_;
    std::map<int, int> keyOf_;
    std::vector<std::vector<int64_t>> locals_;
    std::vector<int64_t> numels_;
};

// One group's figures by position: held by shard index; the others by
// (replicate index x shard count + shard index).
struct GroupWork {
    std::vector<int64_t> held, gathered, computed;
    std::vector<std::vector<int>> computes;
};

// Adds count x (per shard coordinate `values`) into row `row` of `into`.
void addRow(std::vector<int64_t>& into, int64_t row, const std::vector<int64_t>& values,
            int64_t count, int64_t minus = -1) {
    const size_t base = size_t(row) * values.size();
    for (size_t s = 0; s < values.size(); ++s)
        into[base + s] += count * (minus >= 0 ? minus - values[s] : values[s]);
}

// Gathered batch: the full param on its shard-compute coordinate only.
void addShardCompute(const Batch& batch, const LocalNumels& locals,
                     const std::vector<int64_t>& replicateSizes, GroupWork& work) {
    for (const ShardCompute& sc : batch.shardCompute) {
        const int64_t c = coordinateIndex(sc.replicateCoord, replicateSizes);
        for (const auto& [param, shard] : sc.computeCoord) {
            const size_t at =
                size_t(c * locals.shardCount() + coordinateIndex(shard, locals.shardSizes()));
            work.computed[at] += locals.numel(locals.keyOf(param));
            work.computes[at].push_back(param);
        }
    }
}

void addOwnedWork(const Group& group, const LocalNumels& locals,
                  const std::vector<int64_t>& replicateSizes, GroupWork& work) {
    const int64_t shards = locals.shardCount();
    for (const Batch& batch : group.batches) {
        // (replicate index, key) -> owned params: each row added once per pair.
        std::map<std::pair<int64_t, int>, int64_t> owned;
        for (const auto& [param, coord] : batch.owner) {
            const int64_t c = coordinateIndex(coord, replicateSizes);
            ++owned[{c, locals.keyOf(param)}];
            if (!batch.isShard)
                for (int64_t s = 0; s < shards; ++s)
                    work.computes[size_t(c * shards + s)].push_back(param);
        }
        for (const auto& [at, count] : owned) {
            const auto& local = locals.local(at.second);
            if (batch.isShard)
                addRow(work.gathered, at.first, local, count, locals.numel(at.second));
            else
                addRow(work.computed, at.first, local, count);
        }
        if (batch.isShard) addShardCompute(batch, locals, replicateSizes, work);
    }
}

GroupWork groupWork(const Group& group, const LocalNumels& locals,
                    const std::vector<int64_t>& replicateSizes) {
    const int64_t shards = locals.shardCount();
    const auto cells = size_t(coordinateCount(replicateSizes) * shards);
    GroupWork work{std::vector<int64_t>(size_t(shards)), std::vector<int64_t>(cells),
                   std::vector<int64_t>(cells), std::vector<std::vector<int>>(cells)};
    std::vector<int64_t> paramsPerKey(size_t(locals.keyCount()));
    for (int p : group.params) ++paramsPerKey[size_t(locals.keyOf(p))];
    for (int k = 0; k < locals.keyCount(); ++k)
        addRow(work.held, 0, locals.local(k), paramsPerKey[size_t(k)]);
    addOwnedWork(group, locals, replicateSizes, work);
    return work;
}

// Walks the group's mesh row-major (an odometer) and hands each rank of the
// world the figures of its (reduced replicate, shard) coordinate.
void addGroupWork(const Group& group, const std::vector<ParamSpec>& specs,
                  std::optional<int64_t> replicaCount, std::vector<RankOwnership>& ranks) {
    const LocalNumels locals(group, specs);
    const auto replicateSizes = hsdp::replicateSizes(group, replicaCount);
    const GroupWork work = groupWork(group, locals, replicateSizes);
    Coord meshCoord(group.meshShape.size(), 0);
    for (int rank : group.meshRanks) {
        if (rank >= 0 && size_t(rank) < ranks.size()) {
            // coordinateIndex of its shard and (reduced) replicate coordinates,
            // with no coordinate built: 131,072 ranks a group.
            int64_t s = 0;
            for (size_t i = 0; i < group.shardMeshDims.size(); ++i)
                s = s * locals.shardSizes()[i] + meshCoord[size_t(group.shardMeshDims[i])];
            const int64_t c =
                replicateIndex(meshCoord, group.replicateMeshDims, replicateSizes, replicaCount);
            const size_t at = size_t(c * locals.shardCount() + s);
            RankOwnership& r = ranks[size_t(rank)];
            r.heldNumel += work.held[size_t(s)];
            r.gatheredNumel += work.gathered[at];
            r.computedNumel += work.computed[at];
            r.computed.insert(r.computed.end(), work.computes[at].begin(), work.computes[at].end());
        }
        for (size_t d = meshCoord.size(); d-- > 0;) {
            if (++meshCoord[d] < group.meshShape[d]) break;
            meshCoord[d] = 0;
        }
    }
}

// A plain tensor lives whole on every rank, which updates its own copy.
void addNoCommWork(const std::vector<int>& noCommParams, const std::vector<ParamSpec>& specs,
                   std::vector<RankOwnership>& ranks) {
    for (int p : noCommParams) {
        const ParamSpec& spec = specs.at(size_t(p));
        for (RankOwnership& r : ranks) {
            r.heldNumel += spec.numel();
            if (!spec.requiresGrad) continue;
            r.computedNumel += spec.numel();
            r.computed.push_back(p);
        }
    }
}

}  // namespace

void addAdamWWork(std::vector<RankOwnership>& ranks, const std::vector<int>& adamwParams,
                  const Scenario& scenario) {
    // Local numel at every position of the mesh's rank list, per distinct layout.
    std::map<std::string, std::vector<int64_t>> layouts;
    for (int p : adamwParams) {
        const ParamSpec& spec = scenario.params.at(size_t(p));
        const Mesh* mesh = spec.placements ? scenario.findMesh(spec.mesh) : nullptr;
        auto add = [&](int rank, int64_t numel) {
            if (rank < 0 || size_t(rank) >= ranks.size()) return;
            RankOwnership& r = ranks[size_t(rank)];
            r.heldNumel += numel;
            if (!spec.requiresGrad) return;
            r.adamw.push_back(p);
            r.adamwNumel += numel;
        };
        if (!spec.placements) {
            for (RankOwnership& r : ranks) add(r.rank, spec.numel());
            continue;
        }
        if (!mesh) continue;
        std::string key = mesh->name + "|";
        for (int64_t n : spec.shape) key += std::to_string(n) + ",";
        for (const Placement& pl : *spec.placements) key += "|" + pl.toString();
        auto [it, isNew] = layouts.try_emplace(key);
        if (isNew) {
            const auto coords = allCoordinates(mesh->shape);
            it->second.reserve(coords.size());
            for (const Coord& c : coords)
                it->second.push_back(
                    shardLayout(spec.shape, *spec.placements, mesh->shape, c).localNumel());
        }
        for (size_t pos = 0; pos < mesh->ranks.size(); ++pos)
            add(mesh->ranks[pos], it->second[pos]);
    }
}

void addRankWork(std::vector<RankOwnership>& ranks, const std::vector<Group>& groups,
                 const std::vector<int>& noCommParams, const std::vector<ParamSpec>& specs,
                 std::optional<int64_t> replicaCount) {
    for (const Group& group : groups) addGroupWork(group, specs, replicaCount, ranks);
    addNoCommWork(noCommParams, specs, ranks);
    for (RankOwnership& r : ranks) std::sort(r.computed.begin(), r.computed.end());
}

}  // namespace hsdp
