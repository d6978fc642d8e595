// SPDX-License-Identifier: Apache-2.0
#include "cost/step_memory_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "collectives/fused_gather.h"
#include "collectives/newton_schulz.h"
#include "run/optimizer_step.h"
#include "tensor/packing.h"
#include "types/geometry.h"

namespace hsdp {

namespace {

constexpr int64_t kF32 = 4;  // full matrices and updates are fp32 whatever the dtype

int64_t roundUp(int64_t n, int64_t a) {
    return a > 1 ? (n + a - 1) / a * a : n;
}

// One rank's step, replayed buffer by buffer in the order of
// run/optimizer_step.cpp (runScheduleEntry, runLocalParams).
// A gather's buffer is the same on every member of its line: computed by
// the first, keyed (schedule entry, mesh dim, the line's first rank).
using GatherBufferCache = std::map<std::tuple<int, int, int>, int64_t>;

// A param's local element count depends only on the rank's coordinates along
// the mesh dims it is not replicated over: per param, one slot per such
// coordinate (-1 until computed), shared by every rank.
struct ReplayCaches {
    GatherBufferCache gather;
    std::vector<std::vector<int64_t>> localNumel;  // [param][projected coordinate]
};

class RankReplay {
public:
    RankReplay(const Scenario& scenario, const Plan& plan,
               const std::vector<std::vector<int64_t>>& shapes, int rank, ReplayCaches& caches)
        : scenario_(scenario),
          plan_(plan),
          shapes_(shapes),
          rank_(rank),
          gatherCache_(caches.gather),
          numelCache_(caches.localNumel) {}

    StepMemory run() {
        resident();
        for (size_t i = 0; i < plan_.schedule.size(); ++i) {
            tally_.beginEntry(int(i));
            entry(int(i));
        }
        tally_.beginEntry(-1);
        for (int p : plan_.noCommParams)
            if (held(p) && scenario_.params[size_t(p)].requiresGrad) whole(p, {});
        return tally_.result(rank_);
    }

private:
    struct EntryView {
        int index;
        const Group& group;
        const Batch& batch;
        const Mesh& mesh;
        Coord coord;
    };
    struct BroadcastItem {
        Coord root;  // along the broadcast dims
        int64_t bytes;
    };

    const ParamSpec& spec(int p) const { return scenario_.params[size_t(p)]; }
    const Mesh* meshOf(int p) const {
        return spec(p).placements ? scenario_.findMesh(spec(p).mesh) : nullptr;
    }
    bool held(int p) const {
        if (!spec(p).placements) return true;
        const Mesh* mesh = meshOf(p);
        return mesh && mesh->contains(rank_);
    }
    std::vector<int64_t> localShape(int p, const Coord& coord) const {
        const Mesh* mesh = meshOf(p);
        if (!spec(p).placements || !mesh) return shapes_[size_t(p)];
        return shardLayout(shapes_[size_t(p)], *spec(p).placements, mesh->shape, coord)
            .localShape();
    }
    int64_t numel(int p) const { return shapeNumel(shapes_[size_t(p)]); }
    int64_t localNumel(int p, const Coord& coord) {
        const Mesh* mesh = meshOf(p);
        if (!spec(p).placements || !mesh) return numel(p);
        const auto& placements = *spec(p).placements;
        int64_t index = 0, slots = 1;
        for (size_t d = 0; d < placements.size(); ++d)
            if (!placements[d].isReplicate()) {
                index = index * mesh->shape[d] + coord[d];
                slots *= mesh->shape[d];
            }
        auto& cache = numelCache_[size_t(p)];
        if (cache.empty()) cache.assign(size_t(slots), -1);
        if (cache[size_t(index)] < 0) cache[size_t(index)] = shapeNumel(localShape(p, coord));
        return cache[size_t(index)];
    }

    // initialState: W, and G with its momentum unless frozen, in the dtype.
    void resident() {
        for (const auto& s : scenario_.params) {
            if (plan_.isRejected(s.index) || !held(s.index)) continue;
            const Mesh* mesh = meshOf(s.index);
            const Coord coord = mesh ? *mesh->coordinateOf(rank_) : Coord{};
            const int64_t bytes = localNumel(s.index, coord) * dtypeSize(s.dtype);
            tally_.add(MemoryKind::Param, bytes);
            if (!s.requiresGrad) continue;
            tally_.add(MemoryKind::Grad, bytes);
            tally_.add(MemoryKind::Momentum, bytes);
        }
    }

    void entry(int index) {
        const ScheduleEntry& e = plan_.schedule[size_t(index)];
        const Group& group = plan_.groups.at(size_t(e.group));
        const Batch& batch = group.batches.at(size_t(e.batch));
        const Mesh& mesh = scenario_.mesh(group.mesh);
        const auto coord = mesh.coordinateOf(rank_);
        if (!coord) return;
        const EntryView v{index, group, batch, mesh, *coord};
        const Coord replicateCoord = reducedReplicateCoord(group, batch, v.coord);
        std::vector<int> owned;
        for (int p : batch.params) {
            auto it = batch.owner.find(p);
            if (it != batch.owner.end() && it->second == replicateCoord && held(p))
                owned.push_back(p);
        }
        if (batch.isShard) {
            if (!owned.empty()) gathered(v, owned);
        } else {
            for (int p : owned) whole(p, v.coord);
        }
        replicas(v);
    }

    // Newton–Schulz's workspace, allocated for each 2-D slice in turn.
    void newtonSchulz(const std::vector<int64_t>& shape) {
        const int64_t bytes = newtonSchulzWorkspaceBytes(shape);
        if (bytes == 0) return;
        const int64_t slices = shapeNumel(shape) / (shape[shape.size() - 2] * shape.back());
        for (int64_t s = 0; s < slices; ++s) {
            tally_.add(MemoryKind::NewtonSchulz, bytes);
            tally_.remove(MemoryKind::NewtonSchulz, bytes);
        }
    }

    // updateWhole: an fp32 copy of the momentum, orthogonalised in place.
    void whole(int p, const Coord& coord) {
        const auto shape = localShape(p, coord);
        const int64_t bytes = shapeNumel(shape) * kF32;
        tally_.add(MemoryKind::FullMatrix, bytes);
        newtonSchulz(shape);
        tally_.remove(MemoryKind::FullMatrix, bytes);
    }

    // The receive buffer of one all-gather over mesh dim m (tensor dim d):
    // every member's slot, each item reserving its widest member's padded piece.
    int64_t gatherBufferBytes(const EntryView& v, const std::vector<int>& owned, int m,
                              int d) const {
        int64_t slot = 0;
        for (int p : owned) {
            const auto& s = spec(p);
            const int es = dtypeSize(s.dtype);
            const auto piece =
                partialLayout(shapes_[size_t(p)], *s.placements, v.mesh.shape, v.coord, m + 1)
                    .localShape();
            int64_t rest = 1;
            for (size_t k = 0; k < piece.size(); ++k)
                if (int(k) != d) rest *= piece[k];
            const AxisRows rows =
                gatherAxisRows(shapes_[size_t(p)], *s.placements, v.mesh.shape, v.coord, m, d);
            int64_t widest = 0;
            for (const auto& member : rows.members)
                widest = std::max(
                    widest, paddedElements(indexCount(member) * rest, plan_.alignmentBytes, es));
            slot += widest * es;
        }
        return slot * v.mesh.shape[size_t(m)];
    }

    // gatheredUpdate: the fused gathers (each buffer held until the next has
    // read it), the full matrices, the update payloads with Newton–Schulz on
    // the computing shard (each full matrix freed once its update is out), the
    // update broadcast.
    void gathered(const EntryView& v, const std::vector<int>& owned) {
        int64_t held = -1;
        const auto& axes = v.group.layout.shardAxes;
        for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
            const auto [m, d] = *it;
            if (v.mesh.shape[size_t(m)] <= 1) continue;
            Coord first = v.coord;
            first[size_t(m)] = 0;
            const auto key = std::make_tuple(v.index, m, v.mesh.rankAt(first));
            auto cached = gatherCache_.find(key);
            if (cached == gatherCache_.end())
                cached = gatherCache_.emplace(key, gatherBufferBytes(v, owned, m, d)).first;
            const int64_t bytes = cached->second;
            tally_.add(MemoryKind::GatherBuffer, bytes);
            if (held >= 0) tally_.remove(MemoryKind::GatherBuffer, held);
            held = bytes;
        }
        for (int p : owned) tally_.add(MemoryKind::FullMatrix, numel(p) * kF32);
        if (held >= 0) tally_.remove(MemoryKind::GatherBuffer, held);

        const auto& shardDims = updateBroadcastDims(v.group);
        Coord mine;
        for (int d : shardDims) mine.push_back(v.coord[size_t(d)]);
        const Coord replicateCoord = reducedReplicateCoord(v.group, v.batch, v.coord);
        const ShardCompute* computePlan = nullptr;
        for (const auto& entry : v.batch.shardCompute)
            if (entry.replicateCoord == replicateCoord) computePlan = &entry;
        std::vector<BroadcastItem> items;
        for (int p : owned) {
            const Coord computeShard =
                computePlan ? computePlan->computeCoord.at(p) : Coord(shardDims.size(), 0);
            tally_.add(MemoryKind::UpdatePayload, numel(p) * kF32);
            if (computeShard == mine) newtonSchulz(shapes_[size_t(p)]);
            tally_.remove(MemoryKind::FullMatrix, numel(p) * kF32);
            items.push_back({computeShard, numel(p) * kF32});
        }
        broadcast(v, shardDims, items);
        for (int p : owned) tally_.remove(MemoryKind::UpdatePayload, numel(p) * kF32);
    }

    // replicaBroadcast: each owned, held param's updated shard in its dtype.
    void replicas(const EntryView& v) {
        std::vector<BroadcastItem> items;
        for (int p : v.batch.params) {
            auto it = v.batch.owner.find(p);
            if (it == v.batch.owner.end() || !held(p)) continue;
            const int64_t bytes = localNumel(p, v.coord) * dtypeSize(spec(p).dtype);
            tally_.add(MemoryKind::ReplicaPayload, bytes);
            items.push_back({it->second, bytes});
        }
        broadcast(v, replicaBroadcastDims(v.group), items);
        for (const auto& item : items) tally_.remove(MemoryKind::ReplicaPayload, item.bytes);
    }

    // hierarchicalBroadcast: innermost dim first, one fused buffer per root
    // whose items lie on this rank's line (capped chunks share the buffer).
    void broadcast(const EntryView& v, const std::vector<int>& dims,
                   const std::vector<BroadcastItem>& items) {
        for (int i = int(dims.size()) - 1; i >= 0; --i) {
            if (v.mesh.shape[size_t(dims[size_t(i)])] <= 1) continue;
            std::map<int64_t, int64_t> fusedByRoot;
            for (const auto& item : items) {
                bool onLine = true;
                for (int j = 0; j < i && onLine; ++j)
                    onLine = item.root[size_t(j)] == v.coord[size_t(dims[size_t(j)])];
                if (onLine)
                    fusedByRoot[item.root[size_t(i)]] += roundUp(item.bytes, plan_.alignmentBytes);
            }
            for (const auto& [root, bytes] : fusedByRoot) {
                if (bytes == 0) continue;
                tally_.add(MemoryKind::BroadcastBuffer, bytes);
                tally_.remove(MemoryKind::BroadcastBuffer, bytes);
            }
        }
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const std::vector<std::vector<int64_t>>& shapes_;
    const int rank_;
    GatherBufferCache& gatherCache_;
    std::vector<std::vector<int64_t>>& numelCache_;
    MemoryTally tally_;
};

}  // namespace

std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan,
                                          const std::vector<std::vector<int64_t>>& paramShapes) {
    if (paramShapes.size() != scenario.params.size())
        throw std::invalid_argument("predictStepMemory: one shape per param");
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("predictStepMemory: the plan is not of this scenario");
    std::vector<StepMemory> out;
    out.reserve(size_t(scenario.worldSize));
    ReplayCaches caches;
    caches.localNumel.resize(scenario.params.size());
    for (int r = 0; r < scenario.worldSize; ++r)
        out.push_back(RankReplay(scenario, plan, paramShapes, r, caches).run());
    return out;
}

std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    return predictStepMemory(scenario, plan, shapes);
}

}  // namespace hsdp
