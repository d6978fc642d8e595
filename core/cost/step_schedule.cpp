// SPDX-License-Identifier: Apache-2.0
#include "cost/step_schedule.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "collectives/fused_gather.h"
#include "collectives/newton_schulz.h"
#include "collectives/replicate_broadcast.h"
#include "redistribute/redistribute.h"
#include "run/optimizer_step.h"
#include "run/tp_execution.h"
#include "runtime/wire_bytes.h"
#include "tensor/packing.h"
#include "types/geometry.h"

namespace hsdp {

std::string_view stepPhaseName(StepPhase phase) {
    switch (phase) {
        case StepPhase::Gather:
            return "gather";
        case StepPhase::UpdateBroadcast:
            return "update-broadcast";
        case StepPhase::ReplicaBroadcast:
            return "replica-broadcast";
        case StepPhase::Local:
            return "local";
        case StepPhase::Tp:
            return "tp";
    }
    return "?";
}

std::string_view workKindName(WorkKind kind) {
    switch (kind) {
        case WorkKind::Collective:
            return "collective";
        case WorkKind::Pack:
            return "pack";
        case WorkKind::Unpack:
            return "unpack";
        case WorkKind::NewtonSchulz:
            return "newton_schulz";
        case WorkKind::Update:
            return "update";
    }
    return "?";
}

int64_t StepSchedule::traceBytes(const ScheduledCollective& c, int rank) const {
    const auto& members = groups.at(size_t(c.group));
    const int n = int(members.size());
    const int me = int(std::find(members.begin(), members.end(), rank) - members.begin());
    if (n <= 1 || c.sizeBytes == 0) return 0;
    switch (c.op) {
        case CollectiveOp::AllGather:
        case CollectiveOp::AllGatherV:
        case CollectiveOp::ReduceScatter:
        case CollectiveOp::AllToAll:
            return c.sizeBytes / n * (n - 1);
        case CollectiveOp::AllReduce:
            return wire_bytes::allReduce(c.sizeBytes, n);
        case CollectiveOp::Broadcast:
            return wire_bytes::broadcast(c.sizeBytes, n, me, c.root);
        case CollectiveOp::Barrier:
            return 0;
    }
    return 0;
}

namespace {

int64_t roundUp(int64_t n, int64_t a) {
    return a > 1 ? (n + a - 1) / a * a : n;
}

int64_t productExcept(const std::vector<int64_t>& shape, int skipA, int skipB = -1) {
    int64_t n = 1;
    for (int k = 0; k < int(shape.size()); ++k)
        if (k != skipA && k != skipB) n *= shape[size_t(k)];
    return n;
}

// A mesh line (the group along one dim through a coordinate) as a key.
struct LineKey {
    const Mesh* mesh;
    int dim;
    int firstRank;
    bool operator==(const LineKey& o) const {
        return mesh == o.mesh && dim == o.dim && firstRank == o.firstRank;
    }
};
struct LineKeyHash {
    size_t operator()(const LineKey& k) const {
        return std::hash<const void*>()(k.mesh) ^ (size_t(k.dim) * 1000003u) ^
               (size_t(k.firstRank) * 2654435761u);
    }
};

// Builds the schedule entry by entry, rank by rank; a collective is made
// once, by the first member that reaches it, and the others find it by key.
class ScheduleBuilder {
public:
    ScheduleBuilder(const Scenario& scenario, const Plan& plan,
                    const std::vector<std::vector<int64_t>>& paramShapes,
                    const std::vector<std::vector<int64_t>>& tpShapes)
        : scenario_(scenario), plan_(plan), shapes_(paramShapes), tpShapes_(tpShapes) {
        if (paramShapes.size() != scenario.params.size() ||
            tpShapes.size() != scenario.tpTransitions.size())
            throw std::invalid_argument("stepSchedule: one shape per param and transition");
        out_.worldSize = scenario.worldSize;
        out_.ranks.resize(size_t(scenario.worldSize));
        for (const auto& spec : scenario.params)
            paramMesh_.push_back(spec.placements ? scenario.findMesh(spec.mesh) : nullptr);
    }

    StepSchedule build() {
        for (size_t i = 0; i < plan_.schedule.size(); ++i) scheduleEntry(int(i));
        for (int r = 0; r < scenario_.worldSize; ++r) localParams(r);
        for (size_t t = 0; t < plan_.tpTransitions.size(); ++t) tpTransition(int(t));
        return std::move(out_);
    }

private:
    // The collectives of one key (one line, one part of one entry), made by
    // the first member; later members append the same list.
    using InstanceKey = std::tuple<int, int, int, int64_t>;  // (group, part, sub, root)

    bool held(int p, int rank) const {
        const auto& spec = scenario_.params[size_t(p)];
        if (!spec.placements) return true;
        return paramMesh_[size_t(p)] && paramMesh_[size_t(p)]->contains(rank);
    }

    int lineGroup(const Mesh& mesh, int dim, const Coord& coord) {
        Coord first = coord;
        first[size_t(dim)] = 0;
        const LineKey key{&mesh, dim, mesh.rankAt(first)};
        auto it = lines_.find(key);
        if (it != lines_.end()) return it->second;
        // A communicator lists its ranks ascending, whatever the mesh's order.
        std::vector<int> ranks = mesh.groupAlong(dim, coord);
        std::sort(ranks.begin(), ranks.end());
        out_.groups.push_back(std::move(ranks));
        const int id = int(out_.groups.size()) - 1;
        lines_.emplace(key, id);
        return id;
    }

    void addWork(int rank, WorkKind kind, StepPhase phase, int index, double amount) {
        out_.ranks[size_t(rank)].push_back({kind, phase, index, -1, amount});
    }

    void addCollectives(int rank, const std::vector<int>& instances) {
        for (int c : instances) {
            const auto& sc = out_.collectives[size_t(c)];
            const int index = sc.phase == StepPhase::Tp ? sc.tpTransition : sc.scheduleIndex;
            out_.ranks[size_t(rank)].push_back({WorkKind::Collective, sc.phase, index, c, 0});
        }
    }

    int newCollective(ScheduledCollective c) {
        out_.collectives.push_back(c);
        return int(out_.collectives.size()) - 1;
    }

    // --- the schedule's entries (run/optimizer_step.cpp: runScheduleEntry) ---

    void scheduleEntry(int index) {
        const ScheduleEntry& entry = plan_.schedule[size_t(index)];
        const Group& group = plan_.groups.at(size_t(entry.group));
        const Batch& batch = group.batches.at(size_t(entry.batch));
        const Mesh& mesh = scenario_.mesh(group.mesh);
        std::map<Coord, std::vector<int>> ownedBy;  // replicate coordinate -> params, batch order
        for (int p : batch.params) {
            auto it = batch.owner.find(p);
            if (it != batch.owner.end()) ownedBy[it->second].push_back(p);
        }
        instances_.clear();
        EntryView v{index, group, batch, mesh, {}};
        for (int rank : mesh.ranks) {
            v.coord = *mesh.coordinateOf(rank);
            std::vector<int> owned;
            auto it = ownedBy.find(reducedReplicateCoord(group, batch, v.coord));
            if (it != ownedBy.end())
                for (int p : it->second)
                    if (held(p, rank)) owned.push_back(p);
            if (batch.isShard) {
                if (!owned.empty()) gatheredUpdate(rank, v, owned);
            } else {
                for (int p : owned) localUpdate(rank, StepPhase::Local, index, p);
            }
            replicaBroadcast(rank, v);
        }
    }

    struct EntryView {
        int index;
        const Group& group;
        const Batch& batch;
        const Mesh& mesh;
        Coord coord;
    };

    int64_t localNumel(int p, const Coord& coord) const {
        const auto& spec = scenario_.params[size_t(p)];
        const Mesh* mesh = paramMesh_[size_t(p)];
        if (!spec.placements || !mesh) return shapeNumel(shapes_[size_t(p)]);
        return shardLayout(shapes_[size_t(p)], *spec.placements, mesh->shape, coord).localNumel();
    }

    // NS of a param held whole (unsharded batch, no-comm) and its update.
    void localUpdate(int rank, StepPhase phase, int index, int p) {
        const auto& shape = shapes_[size_t(p)];
        addWork(rank, WorkKind::NewtonSchulz, phase, index, newtonSchulzFlops(shape));
        addWork(rank, WorkKind::Update, phase, index,
                double(shapeNumel(shape)) * (4 + 2 * dtypeSize(scenario_.params[size_t(p)].dtype)));
    }

    // The piece of `p` this rank holds before the all-gather over mesh dim m.
    std::vector<int64_t> pieceBefore(const EntryView& v, int p, int m) const {
        const auto& spec = scenario_.params[size_t(p)];
        return partialLayout(shapes_[size_t(p)], *spec.placements, v.mesh.shape, v.coord, m + 1)
            .localShape();
    }

    // Bytes this rank packs into its slot for the all-gather over mesh dim m.
    int64_t packedBytes(const EntryView& v, const std::vector<int>& owned, int m) const {
        int64_t bytes = 0;
        for (int p : owned)
            bytes +=
                shapeNumel(pieceBefore(v, p, m)) * dtypeSize(scenario_.params[size_t(p)].dtype);
        return bytes;
    }

    // The slot bytes of one all-gather over mesh dim m (tensor dim d) of the
    // owned items: each item reserves its widest member's padded piece. The
    // same for every member, so computed once, by the first.
    int64_t gatherSlotBytes(const EntryView& v, const std::vector<int>& owned, int m, int d) const {
        int64_t slot = 0;
        for (int p : owned) {
            const auto& spec = scenario_.params[size_t(p)];
            const int es = dtypeSize(spec.dtype);
            const int64_t rest = productExcept(pieceBefore(v, p, m), d);
            const AxisRows rows =
                gatherAxisRows(shapes_[size_t(p)], *spec.placements, v.mesh.shape, v.coord, m, d);
            int64_t widest = 0;
            for (const auto& member : rows.members)
                widest = std::max(
                    widest, paddedElements(indexCount(member) * rest, plan_.alignmentBytes, es));
            slot += widest * es;
        }
        return slot;
    }

    void gatheredUpdate(int rank, const EntryView& v, const std::vector<int>& owned) {
        const auto& axes = v.group.layout.shardAxes;
        for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
            const auto [m, d] = *it;
            if (v.mesh.shape[size_t(m)] <= 1) continue;
            const int line = lineGroup(v.mesh, m, v.coord);
            const InstanceKey key{line, 0, m, 0};
            auto found = instances_.find(key);
            if (found == instances_.end()) {
                ScheduledCollective c;
                c.op = CollectiveOp::AllGather;
                c.group = line;
                c.sizeBytes =
                    gatherSlotBytes(v, owned, m, d) * int64_t(out_.groups[size_t(line)].size());
                c.phase = StepPhase::Gather;
                fillEntryLabel(c, v, m);
                found = instances_.emplace(key, std::vector<int>{newCollective(c)}).first;
            }
            addWork(rank, WorkKind::Pack, StepPhase::Gather, v.index,
                    double(packedBytes(v, owned, m)));
            addCollectives(rank, found->second);
            addWork(rank, WorkKind::Unpack, StepPhase::Gather, v.index,
                    double(out_.collectives[size_t(found->second.front())].sizeBytes));
        }
        updateBroadcastAndApply(rank, v, owned);
    }

    void fillEntryLabel(ScheduledCollective& c, const EntryView& v, int meshDim) const {
        c.scheduleIndex = v.index;
        c.planGroup = v.group.id;
        c.batch = plan_.schedule[size_t(v.index)].batch;
        c.meshDim = meshDim;
    }

    void updateBroadcastAndApply(int rank, const EntryView& v, const std::vector<int>& owned) {
        const auto& shardDims = updateBroadcastDims(v.group);
        Coord mine;
        for (int d : shardDims) mine.push_back(v.coord[size_t(d)]);
        const Coord replicateCoord = reducedReplicateCoord(v.group, v.batch, v.coord);
        const ShardCompute* computePlan = nullptr;
        for (const auto& entry : v.batch.shardCompute)
            if (entry.replicateCoord == replicateCoord) computePlan = &entry;
        std::vector<BroadcastItemSize> items;
        for (int p : owned) {
            const Coord computeShard =
                computePlan ? computePlan->computeCoord.at(p) : Coord(shardDims.size(), 0);
            if (computeShard == mine)
                addWork(rank, WorkKind::NewtonSchulz, StepPhase::UpdateBroadcast, v.index,
                        newtonSchulzFlops(shapes_[size_t(p)]));
            items.push_back({p, computeShard, shapeNumel(shapes_[size_t(p)]) * 4});
        }
        broadcast(rank, v, StepPhase::UpdateBroadcast, shardDims, 0, items);
        for (int p : owned)
            addWork(rank, WorkKind::Update, StepPhase::UpdateBroadcast, v.index,
                    double(shapeNumel(shapes_[size_t(p)])) * 4 +
                        double(localNumel(p, v.coord)) *
                            (4 + 2 * dtypeSize(scenario_.params[size_t(p)].dtype)));
    }

    void replicaBroadcast(int rank, const EntryView& v) {
        std::vector<BroadcastItemSize> items;
        for (int p : v.batch.params) {
            auto it = v.batch.owner.find(p);
            if (it == v.batch.owner.end() || !held(p, rank)) continue;
            items.push_back({p, it->second, -1});  // sized when its collective is made
        }
        broadcast(rank, v, StepPhase::ReplicaBroadcast, replicaBroadcastDims(v.group),
                  scenario_.options.broadcastMaxBytes, items);
    }

    struct BroadcastItemSize {
        int param;
        Coord root;     // coordinates along the broadcast dims
        int64_t bytes;  // -1: the replica payload, this rank's shard in its dtype
    };

    // collectives/replicate_broadcast.cpp: hierarchicalBroadcast, innermost
    // dim first; per dim one fused broadcast per root, in capped chunks.
    void broadcast(int rank, const EntryView& v, StepPhase phase, const std::vector<int>& dims,
                   int64_t capBytes, const std::vector<BroadcastItemSize>& items) {
        for (int i = int(dims.size()) - 1; i >= 0; --i) {
            const int dim = dims[size_t(i)];
            if (v.mesh.shape[size_t(dim)] <= 1) continue;
            std::map<int64_t, std::vector<const BroadcastItemSize*>> byRoot;
            for (const auto& item : items) {
                bool onLine = true;
                for (int j = 0; j < i && onLine; ++j)
                    onLine = item.root[size_t(j)] == v.coord[size_t(dims[size_t(j)])];
                if (onLine) byRoot[item.root[size_t(i)]].push_back(&item);
            }
            if (byRoot.empty()) continue;
            const int line = lineGroup(v.mesh, dim, v.coord);
            for (const auto& [rootCoord, group] : byRoot) {
                const InstanceKey key{line, phase == StepPhase::UpdateBroadcast ? 1 : 2, dim,
                                      rootCoord};
                auto found = instances_.find(key);
                if (found == instances_.end()) {
                    std::vector<int> made;
                    int64_t total = 0;
                    for (const auto* item : group)
                        total += roundUp(
                            item->bytes >= 0 ? item->bytes : replicaBytes(item->param, v.coord),
                            plan_.alignmentBytes);
                    for (const auto& chunk : chunksOf(total, capBytes)) {
                        if (total == 0) break;
                        ScheduledCollective c;
                        c.op = CollectiveOp::Broadcast;
                        c.group = line;
                        c.sizeBytes = chunk.end - chunk.begin;
                        c.root = rootPosition(v.mesh, dim, v.coord, rootCoord, line);
                        c.phase = phase;
                        fillEntryLabel(c, v, dim);
                        made.push_back(newCollective(c));
                    }
                    found = instances_.emplace(key, std::move(made)).first;
                }
                addCollectives(rank, found->second);
            }
        }
    }

    // The root's position in the (ascending) group of the line through `coord`.
    int rootPosition(const Mesh& mesh, int dim, const Coord& coord, int64_t rootCoord,
                     int line) const {
        Coord at = coord;
        at[size_t(dim)] = rootCoord;
        const auto& ranks = out_.groups[size_t(line)];
        return int(std::find(ranks.begin(), ranks.end(), mesh.rankAt(at)) - ranks.begin());
    }

    int64_t replicaBytes(int p, const Coord& coord) const {
        return localNumel(p, coord) * dtypeSize(scenario_.params[size_t(p)].dtype);
    }

    // --- after the schedule (runLocalParams, runTpTransition) ---

    void localParams(int rank) {
        for (int p : plan_.noCommParams)
            if (held(p, rank) && scenario_.params[size_t(p)].requiresGrad)
                localUpdate(rank, StepPhase::Local, -1, p);
    }

    void tpTransition(int t) {
        const TpTransition& spec = scenario_.tpTransitions[size_t(t)];
        const TpPlan& tp = plan_.tpTransitions[size_t(t)];
        const Mesh& mesh = scenario_.mesh(spec.mesh);
        const auto& shape = tpShapes_[size_t(t)];
        instances_.clear();
        for (int rank : mesh.ranks) {
            const Coord coord = *mesh.coordinateOf(rank);
            const TpExecution ex = tpExecutionFor(tp, rank, RunMode::Corrected);
            if (!ex.steps) continue;
            for (size_t s = 0; s < ex.steps->size(); ++s) {
                const RedistributionStep& step = (*ex.steps)[s];
                const int m = step.meshDim;
                if (mesh.shape[size_t(m)] <= 1 || !stepCommunicates(step.op)) continue;
                const int line = lineGroup(mesh, m, coord);
                const InstanceKey key{line, 3, int(s), 0};
                auto found = instances_.find(key);
                if (found == instances_.end()) {
                    ScheduledCollective c = tpCollective(spec, mesh, shape, step, coord);
                    c.group = line;
                    c.phase = StepPhase::Tp;
                    c.tpTransition = t;
                    c.meshDim = m;
                    found = instances_.emplace(key, std::vector<int>{newCollective(c)}).first;
                }
                addCollectives(rank, found->second);
            }
        }
    }

    // redistribute/redistribute_exec.cpp: the buffer each geometric step sends.
    static ScheduledCollective tpCollective(const TpTransition& spec, const Mesh& mesh,
                                            const std::vector<int64_t>& shape,
                                            const RedistributionStep& step, const Coord& coord) {
        const int m = step.meshDim;
        const int64_t n = mesh.shape[size_t(m)];
        const int ndim = int(shape.size());
        auto layoutAt = [&](const std::vector<Placement>& pl, int64_t j) {
            Coord c = coord;
            c[size_t(m)] = j;
            return shardLayout(shape, pl, mesh.shape, c);
        };
        auto widestAlong = [&](const std::vector<Placement>& pl, int d) {
            int64_t widest = 0;
            for (int64_t j = 0; j < n; ++j)
                widest = std::max(widest, indexCount(layoutAt(pl, j).dims[size_t(d)]));
            return widest;
        };
        const auto local = shardLayout(shape, step.before, mesh.shape, coord).localShape();
        int es = dtypeSize(spec.dtype);
        ScheduledCollective c;
        switch (step.op) {
            case RedistributionOp::AllGather: {
                const int d = normalizeDim(step.before[size_t(m)].dim, ndim);
                c.op = CollectiveOp::AllGather;
                c.sizeBytes = widestAlong(step.before, d) * productExcept(local, d) * es * n;
                break;
            }
            case RedistributionOp::AllReduce: {
                if (step.before[size_t(m)].reduceOp == ReduceOp::Avg && es == 2) es = 4;
                c.op = CollectiveOp::AllReduce;
                c.sizeBytes = shapeNumel(local) * es;
                break;
            }
            case RedistributionOp::ReduceScatter: {
                const int d = normalizeDim(step.after[size_t(m)].dim, ndim);
                if (step.before[size_t(m)].reduceOp == ReduceOp::Avg && es == 2) es = 4;
                c.op = CollectiveOp::ReduceScatter;
                c.sizeBytes = widestAlong(step.after, d) * productExcept(local, d) * es * n;
                break;
            }
            case RedistributionOp::AllToAll: {
                const int i = normalizeDim(step.before[size_t(m)].dim, ndim);
                const int j = normalizeDim(step.after[size_t(m)].dim, ndim);
                c.op = CollectiveOp::AllToAll;
                c.sizeBytes = widestAlong(step.before, i) * widestAlong(step.after, j) *
                              productExcept(local, i, j) * es * n;
                break;
            }
            case RedistributionOp::LocalChunk:
            case RedistributionOp::LocalSplit:
                break;  // never here: they do not communicate
        }
        return c;
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const std::vector<std::vector<int64_t>>& shapes_;
    const std::vector<std::vector<int64_t>>& tpShapes_;
    std::vector<const Mesh*> paramMesh_;
    std::unordered_map<LineKey, int, LineKeyHash> lines_;
    std::map<InstanceKey, std::vector<int>> instances_;
    StepSchedule out_;
};

}  // namespace

StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan,
                          const std::vector<std::vector<int64_t>>& paramShapes,
                          const std::vector<std::vector<int64_t>>& tpShapes) {
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("stepSchedule: the plan is not of this scenario");
    return ScheduleBuilder(scenario, plan, paramShapes, tpShapes).build();
}

StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan) {
    std::vector<std::vector<int64_t>> shapes, tpShapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
    return stepSchedule(scenario, plan, shapes, tpShapes);
}

}  // namespace hsdp
