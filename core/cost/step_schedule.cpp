// SPDX-License-Identifier: Apache-2.0
#include "cost/step_schedule.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "collectives/adamw_step.h"
#include "collectives/newton_schulz.h"
#include "collectives/owner_exchange.h"
#include "collectives/replicate_broadcast.h"
#include "cost/detail/broadcast_groups.h"
#include "cost/detail/gather_slot.h"
#include "cost/detail/tp_collective.h"
#include "redistribute/redistribute.h"
#include "run/optimizer_step.h"
#include "run/tp_execution.h"
#include "runtime/wire_bytes.h"
#include "step/entry_owners.h"
#include "step/entry_view.h"
#include "tensor/packing.h"
#include "types/figures.h"
#include "types/geometry.h"
#include "types/stopped.h"

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
        case CollectiveOp::AllToAllV:
            return c.exchange.at(size_t(me)).sent;
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

// boost::hash_combine's mix, for the small integer tuples used as keys below.
size_t hashCombine(size_t seed, uint64_t value) {
    return seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
}

// A mesh line (the group along one dim through a coordinate) as a key.
struct LineKey {
    const Mesh* mesh;
    int dim;
    int firstRank;
    bool operator==(const LineKey&) const = default;
};
struct LineKeyHash {
    size_t operator()(const LineKey& k) const {
        return hashCombine(hashCombine(std::hash<const void*>()(k.mesh), uint64_t(k.dim)),
                           uint64_t(k.firstRank));
    }
};

// The collectives one line makes for one part of an entry or TP transition:
// made by the line's first member, found by the others.
struct InstanceKey {
    int line;  // index into StepSchedule::groups
    int part;  // 0 gather, 1 update broadcast, 2 replica broadcast, 3 TP step
    int sub;   // the mesh dim, or the TP step
    bool operator==(const InstanceKey&) const = default;
};
struct InstanceKeyHash {
    size_t operator()(const InstanceKey& k) const {
        return hashCombine(hashCombine(uint64_t(k.line), uint64_t(k.part)), uint64_t(k.sub));
    }
};
// What one key made: `count` consecutive collectives from `first` (a line's
// broadcasts, root after root and chunk after chunk, are several; an empty
// broadcast none).
struct Instances {
    int first = 0;
    int count = 0;
};

// A param's piece size at one shard coordinate of an entry's mesh.
struct PieceKey {
    int param;
    int upTo;       // placements applied
    int64_t shard;  // row-major index of the coordinate over the group's shard mesh dims
    bool operator==(const PieceKey&) const = default;
};
struct PieceKeyHash {
    size_t operator()(const PieceKey& k) const {
        return hashCombine(hashCombine(uint64_t(k.param), uint64_t(k.upTo)), uint64_t(k.shard));
    }
};

// A fused broadcast's items (a group of BroadcastGroups) at one shard coordinate.
struct FusedKey {
    const void* group;
    int64_t shard;  // as in PieceKey
    bool operator==(const FusedKey&) const = default;
};
struct FusedKeyHash {
    size_t operator()(const FusedKey& k) const {
        return hashCombine(std::hash<const void*>()(k.group), uint64_t(k.shard));
    }
};

// Builds the schedule entry by entry, rank by rank; a collective is made
// once, by the first member that reaches it, and the others find it by key.
// What is the same for many ranks of an entry (the params a replicate
// coordinate owns, how a broadcast's items group by line and root, a param's
// piece at a shard coordinate) is worked out once per entry, so a rank costs
// about the work it is given, not the size of its batch.
class ScheduleBuilder {
public:
    ScheduleBuilder(const Scenario& scenario, const Plan& plan,
                    const std::vector<std::vector<int64_t>>& paramShapes,
                    const std::vector<std::vector<int64_t>>& tpShapes,
                    const ScheduleBudget& budget = {})
        : scenario_(scenario),
          plan_(plan),
          shapes_(paramShapes),
          tpShapes_(tpShapes),
          budget_(budget) {
        if (paramShapes.size() != scenario.params.size() ||
            tpShapes.size() != scenario.tpTransitions.size())
            throw std::invalid_argument("stepSchedule: one shape per param and transition");
        out_.worldSize = scenario.worldSize;
        out_.ranks.resize(size_t(scenario.worldSize));
        for (const auto& spec : scenario.params)
            paramMesh_.push_back(spec.placements ? scenario.findMesh(spec.mesh) : nullptr);
        out_.newtonSchulz = scenario.options.newtonSchulz;
        for (const auto& shape : paramShapes) {
            const NewtonSchulzMatrices m = newtonSchulzMatrices(shape);
            out_.matrixSides.push_back({m.shortSide, m.longSide});
        }
    }

    StepSchedule build(bool gatherOnly = false, bool withCompute = true) {
        gatherOnly_ = gatherOnly;
        withCompute_ = withCompute;
        for (size_t i = 0; i < plan_.schedule.size(); ++i) scheduleEntry(int(i));
        if (!gatherOnly) {
            const std::vector<double> adamw = adamwBytes();
            for (int r = 0; r < scenario_.worldSize; ++r) localParams(r, adamw[size_t(r)]);
            for (size_t t = 0; t < plan_.tpTransitions.size(); ++t) tpTransition(int(t));
        }
        // Hundreds of items per rank at 131,072 ranks: the growth's slack alone
        // would be hundreds of MiB.
        for (auto& items : out_.ranks) items.shrink_to_fit();
        return std::move(out_);
    }

private:
    bool held(int p, int rank) const {
        const auto& spec = scenario_.params[size_t(p)];
        if (!spec.placements) return true;
        return paramMesh_[size_t(p)] && paramMesh_[size_t(p)]->contains(rank);
    }

    int lineGroup(const Mesh& mesh, int dim, const Coord& coord) {
        return groupOver(mesh, {dim}, coord, dim);
    }

    // The flattened shard group of an all-to-all exchange through `coord`,
    // keyed by the dims as a negative "dim".
    int exchangeGroup(const Mesh& mesh, const std::vector<int>& dims, const Coord& coord) {
        int mask = 0;
        for (int d : dims) mask |= 1 << d;
        return groupOver(mesh, dims, coord, -1 - mask);
    }

    // The group over `dims` through `coord`, made once and found by `keyDim`
    // and the rank at the group's origin (`coord` with those dims at 0).
    int groupOver(const Mesh& mesh, const std::vector<int>& dims, const Coord& coord, int keyDim) {
        Coord origin = coord;
        for (int d : dims) origin[size_t(d)] = 0;
        const LineKey key{&mesh, keyDim, mesh.rankAt(origin)};
        auto it = lines_.find(key);
        if (it != lines_.end()) return it->second;
        // A communicator lists its ranks ascending, whatever the mesh's order.
        std::vector<int> ranks = mesh.groupOver(dims, coord);
        std::sort(ranks.begin(), ranks.end());
        out_.groups.push_back(std::move(ranks));
        const int id = int(out_.groups.size()) - 1;
        lines_.emplace(key, id);
        return id;
    }

    // `amount` is the figure or a callable giving it, evaluated only when
    // the schedule keeps compute (a collectives-only schedule skips its cost).
    template <class Amount>
    void addWork(int rank, WorkKind kind, StepPhase phase, int index, Amount amount,
                 int param = -1) {
        if (!withCompute_) return;
        double value = 0;
        if constexpr (std::is_invocable_v<Amount>)
            value = double(amount());
        else
            value = double(amount);
        out_.ranks[size_t(rank)].push_back({kind, phase, index, param, value});
        countItems(1);
    }

    void countItems(int64_t n) {
        throwIfStopped(budget_.stop);
        items_ += n;
        if (budget_.maxWorkItems > 0 && items_ > budget_.maxWorkItems) throw tooLarge();
    }

    // Says how large the whole schedule would be, extrapolated from the
    // entries built so far, and what does predict it: a larger batch cap
    // helps only as far as fewer collectives do, so none is suggested.
    ScheduleTooLarge tooLarge() const {
        const auto entries = int64_t(plan_.schedule.size());
        const int64_t built = std::clamp<int64_t>(entry_ + 1, 1, std::max<int64_t>(entries, 1));
        const auto estimate =
            int64_t(double(items_) * double(std::max<int64_t>(entries, 1)) / double(built));
        return ScheduleTooLarge(
            "the step's schedule would hold about " + groupedCount(estimate) + " work items (" +
            humanBytes(double(estimate) * kScheduleItemBytes) + "; " +
            groupedCount(scenario_.worldSize) + " ranks; " + groupedCount(items_) +
            " in the first " + groupedCount(built) + " of " + groupedCount(entries) +
            " schedule entries), over the limit of " + groupedCount(budget_.maxWorkItems) + " (" +
            humanBytes(double(budget_.maxWorkItems) * kScheduleItemBytes) +
            "); hsdp-inspect plan --cluster predicts it without a limit");
    }

    void addCollectives(int rank, Instances made) {
        for (int c = made.first; c < made.first + made.count; ++c) {
            const auto& sc = out_.collectives[size_t(c)];
            const int index = sc.phase == StepPhase::Tp ? sc.tpTransition : sc.scheduleIndex;
            out_.ranks[size_t(rank)].push_back({WorkKind::Collective, sc.phase, index, c, 0});
        }
        countItems(made.count);
    }

    int newCollective(ScheduledCollective c) {
        out_.collectives.push_back(c);
        return int(out_.collectives.size()) - 1;
    }

    // The collectives of `key`, made by `make` (returning their Instances)
    // when this rank is the first member to reach them.
    template <class Make>
    Instances instancesOf(const InstanceKey& key, Make make) {
        auto found = instances_.find(key);
        if (found == instances_.end()) found = instances_.emplace(key, make()).first;
        return found->second;
    }

    // --- the schedule's entries (run/optimizer_step.cpp: runScheduleEntry) ---

    struct BroadcastItemSize {
        int param;
        Coord root;     // coordinates along the broadcast dims
        int64_t bytes;  // -1: the replica payload, this rank's shard in its dtype
    };

    // A broadcast's items, and which of them each line broadcasts from which root.
    struct BroadcastItems {
        std::vector<BroadcastItemSize> items;
        BroadcastGroups groups;
    };

    // What the ranks of one owner class do in an entry: for a gathered
    // batch, the update broadcast of its params, made when the first of these
    // ranks needs it.
    struct OwnerWork {
        const OwnerClass* owner;
        std::optional<BroadcastItems> updates;
    };

    void scheduleEntry(int index) {
        entry_ = index;
        const ScheduleEntry& entry = plan_.schedule[size_t(index)];
        const Group& group = plan_.groups.at(size_t(entry.group));
        const Batch& batch = group.batches.at(size_t(entry.batch));
        const Mesh& mesh = scenario_.mesh(group.mesh);
        EntryView v{index, group, batch, entry.batch, mesh, {}};
        startEntry(v);
        for (int rank : mesh.ranks) {
            v.coord = *mesh.coordinateOf(rank);
            auto work = owners_.find(reducedReplicateCoord(group, batch, v.coord));
            if (work != owners_.end()) {
                if (batch.isShard && exchangesWithOwners(group, batch, RunMode::Corrected)) {
                    exchangedUpdate(rank, v, *work->second.owner);
                } else if (batch.isShard) {
                    gatheredUpdate(rank, v, work->second);
                } else {
                    for (int p : work->second.owner->owned)
                        localUpdate(rank, StepPhase::Local, index, p);
                }
            }
            if (!gatherOnly_)
                broadcast(rank, v, StepPhase::ReplicaBroadcast, replicaBroadcastDims(group),
                          scenario_.options.broadcastMaxBytes, *replicas_);
        }
    }

    // What every rank of the entry shares: the owner classes and the replica
    // broadcast (each owned param the ranks hold, rooted at its owner).
    void startEntry(const EntryView& v) {
        instances_.clear();
        exchanges_.clear();
        pieces_.clear();
        fusedBytes_.clear();  // its keys point into owners_ and replicas_, remade here
        owners_.clear();
        entryOwners_ = entryOwners(scenario_, v.group, v.batch, v.mesh, "stepSchedule");
        for (const auto& [coord, owner] : entryOwners_.classes)
            owners_.emplace(coord, OwnerWork{&owner, std::nullopt});
        std::vector<BroadcastItemSize> replicas;
        for (size_t i = 0; i < entryOwners_.owned.size(); ++i)  // sized when made
            replicas.push_back({entryOwners_.owned[i], entryOwners_.owners[i], -1});
        replicas_.emplace(withGroups(std::move(replicas), replicaBroadcastDims(v.group), v.mesh));
    }

    static BroadcastItems withGroups(std::vector<BroadcastItemSize> items,
                                     const std::vector<int>& dims, const Mesh& mesh) {
        std::vector<Coord> roots;
        for (const auto& item : items) roots.push_back(item.root);
        BroadcastGroups groups(roots, dims, mesh.shape);
        return {std::move(items), std::move(groups)};
    }

    // Elements of p's piece after its first `upTo` placements, at the rank's
    // coordinate. Only the group's shard mesh dims split a piece (its other
    // dims replicate), so it is the same on every rank of one shard
    // coordinate: computed once per entry for each of them.
    int64_t pieceNumel(const EntryView& v, int p, int upTo) {
        const PieceKey key{p, upTo, indexOver(v.group.shardMeshDims, v.mesh.shape, v.coord)};
        auto [it, isNew] = pieces_.try_emplace(key, 0);
        if (isNew)
            it->second = shapeNumel(partialLayout(shapes_[size_t(p)],
                                                  *scenario_.params[size_t(p)].placements,
                                                  v.mesh.shape, v.coord, upTo)
                                        .localShape());
        return it->second;
    }

    int64_t localNumel(const EntryView& v, int p) {
        const auto& spec = scenario_.params[size_t(p)];
        if (!spec.placements || !paramMesh_[size_t(p)]) return shapeNumel(shapes_[size_t(p)]);
        return pieceNumel(v, p, int(spec.placements->size()));
    }

    // NS of a param held whole (unsharded batch, no-comm) and its update, on
    // what the rank holds of it: updateWhole runs on the local momentum, so a
    // stack split on its batch dims only (expert parallel, not gathered) costs
    // each rank its own slices, not the whole stack.
    void localUpdate(int rank, StepPhase phase, int index, int p) {
        const auto shape = heldShape(p, rank);
        addWork(rank, WorkKind::NewtonSchulz, phase, index, nsFlops(shape), p);
        addWork(rank, WorkKind::Update, phase, index,
                double(shapeNumel(shape)) * (4 + 2 * dtypeSize(scenario_.params[size_t(p)].dtype)),
                p);
    }

    // The shape of what `rank` holds of p (all of it for a plain tensor).
    std::vector<int64_t> heldShape(int p, int rank) const {
        const auto& spec = scenario_.params[size_t(p)];
        const Mesh* mesh = paramMesh_[size_t(p)];
        if (!spec.placements || !mesh) return shapes_[size_t(p)];
        return shardLayout(shapes_[size_t(p)], *spec.placements, mesh->shape,
                           *mesh->coordinateOf(rank))
            .localShape();
    }

    double nsFlops(const std::vector<int64_t>& shape) const {
        return newtonSchulzFlops(shape, scenario_.options.newtonSchulz);
    }

    // Bytes this rank packs into its slot for the all-gather over mesh dim m.
    int64_t packedBytes(const EntryView& v, const std::vector<int>& owned, int m) {
        int64_t bytes = 0;
        for (int p : owned)
            bytes += pieceNumel(v, p, m + 1) * dtypeSize(scenario_.params[size_t(p)].dtype);
        return bytes;
    }

    void gatheredUpdate(int rank, const EntryView& v, OwnerWork& work) {
        const auto& owned = work.owner->owned;
        const auto& axes = v.group.layout.shardAxes;
        for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
            const auto m = it->first, d = it->second;  // (lambdas below capture them)
            if (v.mesh.shape[size_t(m)] <= 1) continue;
            const int line = lineGroup(v.mesh, m, v.coord);
            const Instances gather = instancesOf({line, 0, m}, [&] {
                ScheduledCollective c;
                c.op = CollectiveOp::AllGather;
                c.group = line;
                c.sizeBytes = gatherSlotBytes(scenario_, shapes_, plan_.alignmentBytes, v.mesh,
                                              v.coord, owned, m, d) *
                              int64_t(out_.groups[size_t(line)].size());
                c.phase = StepPhase::Gather;
                fillEntryLabel(c, v, m);
                return Instances{newCollective(c), 1};
            });
            addWork(rank, WorkKind::Pack, StepPhase::Gather, v.index,
                    [&] { return packedBytes(v, owned, m); });
            addCollectives(rank, gather);
            addWork(rank, WorkKind::Unpack, StepPhase::Gather, v.index,
                    double(out_.collectives[size_t(gather.first)].sizeBytes));
        }
        updateBroadcastAndApply(rank, v, work);
    }

    // One exchange group's two alltoallv of an entry, with the block sizes
    // (collectives/owner_exchange.h) every member's work is read from.
    struct Exchange {
        OwnerExchangeGroup members;               // ranks and computers only
        ExchangeTotals toComputer, fromComputer;  // per member
        int gather = -1, updateReturn = -1;       // collectives
    };

    ScheduledCollective exchangeCollective(const EntryView& v, int group, StepPhase phase,
                                           const ExchangeTotals& totals) {
        ScheduledCollective c;
        c.op = CollectiveOp::AllToAllV;
        c.group = group;
        c.phase = phase;
        fillEntryLabel(c, v, -1);
        const size_t n = totals.sent.size();
        int64_t most = 0;
        for (size_t q = 0; q < n; ++q) {  // on the wire: all but the block a member keeps
            const int64_t sent = totals.sent[q] - totals.own[q];
            const int64_t received = totals.received[q] - totals.own[q];
            c.exchange.push_back({sent, totals.sent[q], totals.received[q]});
            most = std::max({most, sent, received});
        }
        c.sizeBytes = n > 1 ? (most * int64_t(n) + int64_t(n) - 2) / int64_t(n - 1) : 0;
        return c;
    }

    Exchange& exchangeOf(const EntryView& v, const OwnerClass& owner, int group) {
        auto [it, isNew] = exchanges_.try_emplace(group);
        if (!isNew) return it->second;
        Exchange& x = it->second;
        std::vector<OwnerExchangeItem> items;
        const auto& shardDims = updateBroadcastDims(v.group);
        for (size_t i = 0; i < owner.owned.size(); ++i) {
            const int p = owner.owned[i];
            items.push_back({{p, shapes_[size_t(p)], *scenario_.params[size_t(p)].placements,
                              scenario_.params[size_t(p)].dtype, nullptr},
                             owner.computeShards[i]});
        }
        const OwnerExchangeSetup setup{&v.mesh, v.coord, shardDims, plan_.alignmentBytes, {}};
        x.members = ownerExchangeGroup(setup, items);
        x.toComputer =
            exchangeTotals(x.members, items, plan_.alignmentBytes, ExchangeDirection::ToComputer);
        x.fromComputer =
            exchangeTotals(x.members, items, plan_.alignmentBytes, ExchangeDirection::FromComputer);
        x.members.held.clear();                     // every member's bytes are in the totals
        if (x.members.ranks.size() == 1) return x;  // it keeps its own blocks: no collective
        x.gather = newCollective(exchangeCollective(v, group, StepPhase::Gather, x.toComputer));
        x.updateReturn =
            newCollective(exchangeCollective(v, group, StepPhase::UpdateBroadcast, x.fromComputer));
        return x;
    }

    // run/optimizer_step.cpp exchangedUpdate: pack, the exchange to the
    // computing ranks, assembly; Newton–Schulz where computed; pack, the
    // exchange back, each owned param's update.
    void exchangedUpdate(int rank, const EntryView& v, const OwnerClass& owner) {
        const int group = exchangeGroup(v.mesh, updateBroadcastDims(v.group), v.coord);
        const Exchange& x = exchangeOf(v, owner, group);
        const auto& ranks = out_.groups[size_t(group)];
        const size_t me = size_t(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
        addWork(rank, WorkKind::Pack, StepPhase::Gather, v.index, double(x.toComputer.sent[me]));
        if (x.gather >= 0) addCollectives(rank, {x.gather, 1});
        addWork(rank, WorkKind::Unpack, StepPhase::Gather, v.index,
                double(x.toComputer.received[me]));
        for (size_t i = 0; i < owner.owned.size(); ++i)
            if (x.members.computer[i] == int(me))
                addWork(rank, WorkKind::NewtonSchulz, StepPhase::UpdateBroadcast, v.index,
                        nsFlops(shapes_[size_t(owner.owned[i])]), owner.owned[i]);
        addWork(rank, WorkKind::Pack, StepPhase::UpdateBroadcast, v.index,
                double(x.fromComputer.sent[me]));
        if (x.updateReturn >= 0) addCollectives(rank, {x.updateReturn, 1});
        for (int p : owner.owned)
            addWork(
                rank, WorkKind::Update, StepPhase::UpdateBroadcast, v.index,
                [&] {
                    return double(localNumel(v, p)) *
                           (4 + 2 * dtypeSize(scenario_.params[size_t(p)].dtype));
                },
                p);
    }

    void fillEntryLabel(ScheduledCollective& c, const EntryView& v, int meshDim) const {
        c.scheduleIndex = v.index;
        c.planGroup = v.group.id;
        c.batch = v.batchIndex;
        c.meshDim = meshDim;
    }

    void updateBroadcastAndApply(int rank, const EntryView& v, OwnerWork& work) {
        const OwnerClass& owner = *work.owner;
        const auto& shardDims = updateBroadcastDims(v.group);
        if (!work.updates) work.updates.emplace(updateItems(v, owner));
        Coord mine;
        for (int d : shardDims) mine.push_back(v.coord[size_t(d)]);
        for (const auto& item : work.updates->items)
            if (item.root == mine)
                addWork(rank, WorkKind::NewtonSchulz, StepPhase::UpdateBroadcast, v.index,
                        nsFlops(shapes_[size_t(item.param)]), item.param);
        broadcast(rank, v, StepPhase::UpdateBroadcast, shardDims, 0, *work.updates);
        for (int p : owner.owned)
            addWork(
                rank, WorkKind::Update, StepPhase::UpdateBroadcast, v.index,
                [&] {
                    return double(shapeNumel(shapes_[size_t(p)])) * 4 +
                           double(localNumel(v, p)) *
                               (4 + 2 * dtypeSize(scenario_.params[size_t(p)].dtype));
                },
                p);
    }

    // The update broadcast of a class's owned params: each param's fp32
    // update, rooted at the shard coordinate that runs its Newton–Schulz.
    BroadcastItems updateItems(const EntryView& v, const OwnerClass& owner) const {
        const auto& shardDims = updateBroadcastDims(v.group);
        std::vector<BroadcastItemSize> items;
        for (size_t i = 0; i < owner.owned.size(); ++i)
            items.push_back({owner.owned[i], owner.computeShards[i],
                             shapeNumel(shapes_[size_t(owner.owned[i])]) * 4});
        return withGroups(std::move(items), shardDims, v.mesh);
    }

    // collectives/replicate_broadcast.cpp: hierarchicalBroadcast, innermost
    // dim first; per dim one fused broadcast per root, in capped chunks.
    void broadcast(int rank, const EntryView& v, StepPhase phase, const std::vector<int>& dims,
                   int64_t capBytes, const BroadcastItems& b) {
        for (int i = int(dims.size()) - 1; i >= 0; --i) {
            const int dim = dims[size_t(i)];
            if (v.mesh.shape[size_t(dim)] <= 1) continue;
            const auto* groups = b.groups.along(i, v.coord);
            if (!groups) continue;
            // The members of a line share their coordinates off `dim`, so
            // they see the same groups: the first makes the line's broadcasts,
            // root by root, and every member joins them in that order.
            const int line = lineGroup(v.mesh, dim, v.coord);
            const int part = phase == StepPhase::UpdateBroadcast ? 1 : 2;
            addCollectives(rank, instancesOf({line, part, dim}, [&] {
                               Instances made{int(out_.collectives.size()), 0};
                               for (const auto& group : *groups)
                                   made.count += fusedBroadcast(v, phase, dim, line, group, b.items,
                                                                capBytes);
                               return made;
                           }));
        }
    }

    // The broadcast along `dim` of the items of `group`, in chunks of at most
    // capBytes, sized at this (first) member's coordinate; how many it made.
    int fusedBroadcast(const EntryView& v, StepPhase phase, int dim, int line,
                       const BroadcastGroups::RootGroup& group,
                       const std::vector<BroadcastItemSize>& items, int64_t capBytes) {
        int made = 0;
        for (const auto& chunk : chunksOf(fusedBytes(v, group, items), capBytes)) {
            ScheduledCollective c;
            c.op = CollectiveOp::Broadcast;
            c.group = line;
            c.sizeBytes = chunk.end - chunk.begin;
            c.root = rootPosition(v.mesh, dim, v.coord, group.root, line);
            c.phase = phase;
            fillEntryLabel(c, v, dim);
            newCollective(c);
            ++made;
        }
        return made;
    }

    // The bytes of the broadcast of `group`: its items' payloads, each padded
    // to the alignment. A replica payload is the rank's shard, the same at one
    // shard coordinate (pieceNumel), so the lines through one shard coordinate
    // that broadcast this group share the sum: made once for all of them.
    int64_t fusedBytes(const EntryView& v, const BroadcastGroups::RootGroup& group,
                       const std::vector<BroadcastItemSize>& items) {
        const FusedKey key{&group, indexOver(v.group.shardMeshDims, v.mesh.shape, v.coord)};
        auto [it, isNew] = fusedBytes_.try_emplace(key, 0);
        if (!isNew) return it->second;
        for (int k : group.items) {
            const auto& item = items[size_t(k)];
            it->second += paddedElements(item.bytes >= 0 ? item.bytes : replicaBytes(v, item.param),
                                         plan_.alignmentBytes, 1);
        }
        return it->second;
    }

    // The root's position in the (ascending) group of the line through `coord`.
    int rootPosition(const Mesh& mesh, int dim, const Coord& coord, int64_t rootCoord,
                     int line) const {
        Coord at = coord;
        at[size_t(dim)] = rootCoord;
        const auto& ranks = out_.groups[size_t(line)];
        return int(std::find(ranks.begin(), ranks.end(), mesh.rankAt(at)) - ranks.begin());
    }

    int64_t replicaBytes(const EntryView& v, int p) {
        return localNumel(v, p) * dtypeSize(scenario_.params[size_t(p)].dtype);
    }

    // --- after the schedule (runLocalParams, runTpTransition) ---

    void localParams(int rank, double adamwBytes) {
        for (int p : plan_.noCommParams)
            if (held(p, rank) && scenario_.params[size_t(p)].requiresGrad)
                localUpdate(rank, StepPhase::Local, -1, p);
        // The AdamW params it holds: one fused elementwise update of its shards.
        if (adamwBytes > 0) addWork(rank, WorkKind::Update, StepPhase::Local, -1, adamwBytes);
    }

    // Per rank, the bytes its AdamW update moves over the trainable AdamW
    // shards it holds; a layout is worked out once per (param, mesh position
    // along its non-replicated dims).
    std::vector<double> adamwBytes() const {
        std::vector<double> out(size_t(scenario_.worldSize), 0.0);
        for (int p : plan_.adamwParams) {
            const ParamSpec& spec = scenario_.params[size_t(p)];
            if (!spec.requiresGrad) continue;
            const double perElement = adamwUpdateBytesPerElement(spec.dtype);
            const auto& shape = shapes_[size_t(p)];
            const Mesh* mesh = paramMesh_[size_t(p)];
            if (!spec.placements) {
                for (double& bytes : out) bytes += double(shapeNumel(shape)) * perElement;
                continue;
            }
            if (!mesh) continue;
            std::vector<int> dims;
            for (int d = 0; d < mesh->ndim(); ++d)
                if (!(*spec.placements)[size_t(d)].isReplicate()) dims.push_back(d);
            std::unordered_map<int64_t, int64_t> numels;
            Coord coord(mesh->shape.size(), 0);
            for (int rank : mesh->ranks) {  // row-major: the odometer below
                auto [it, isNew] = numels.try_emplace(indexOver(dims, mesh->shape, coord));
                if (isNew)
                    it->second =
                        shardLayout(shape, *spec.placements, mesh->shape, coord).localNumel();
                if (rank >= 0 && rank < scenario_.worldSize)
                    out[size_t(rank)] += double(it->second) * perElement;
                for (size_t d = coord.size(); d-- > 0;) {
                    if (++coord[d] < mesh->shape[d]) break;
                    coord[d] = 0;
                }
            }
        }
        return out;
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
                addCollectives(rank, instancesOf({line, 3, int(s)}, [&] {
                                   ScheduledCollective c =
                                       tpStepCollective(spec, mesh, shape, step, coord);
                                   c.group = line;
                                   c.phase = StepPhase::Tp;
                                   c.tpTransition = t;
                                   c.meshDim = m;
                                   return Instances{newCollective(c), 1};
                               }));
            }
        }
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const std::vector<std::vector<int64_t>>& shapes_;
    const std::vector<std::vector<int64_t>>& tpShapes_;
    ScheduleBudget budget_;
    int64_t items_ = 0;  // work items so far, all ranks
    int entry_ = -1;     // the schedule entry being built
    std::vector<const Mesh*> paramMesh_;
    std::unordered_map<LineKey, int, LineKeyHash> lines_;
    // Of the entry or TP transition being built:
    std::unordered_map<InstanceKey, Instances, InstanceKeyHash> instances_;
    std::unordered_map<int, Exchange> exchanges_;  // by exchange group
    bool gatherOnly_ = false;
    bool withCompute_ = true;
    EntryOwners entryOwners_;
    std::map<Coord, OwnerWork> owners_;       // replicate coordinate -> its class's work
    std::optional<BroadcastItems> replicas_;  // the replica broadcast
    std::unordered_map<PieceKey, int64_t, PieceKeyHash> pieces_;
    std::unordered_map<FusedKey, int64_t, FusedKeyHash> fusedBytes_;
    StepSchedule out_;
};

}  // namespace

StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan,
                          const std::vector<std::vector<int64_t>>& paramShapes,
                          const std::vector<std::vector<int64_t>>& tpShapes) {
    return stepSchedule(scenario, plan, paramShapes, tpShapes, ScheduleBudget{});
}

StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan,
                          const std::vector<std::vector<int64_t>>& paramShapes,
                          const std::vector<std::vector<int64_t>>& tpShapes,
                          const ScheduleBudget& budget) {
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("stepSchedule: the plan is not of this scenario");
    return ScheduleBuilder(scenario, plan, paramShapes, tpShapes, budget).build();
}

StepSchedule stepSchedule(const Scenario& scenario, const Plan& plan) {
    std::vector<std::vector<int64_t>> shapes, tpShapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
    return stepSchedule(scenario, plan, shapes, tpShapes);
}

StepSchedule gatherSchedule(const Scenario& scenario, const Plan& plan,
                            const std::vector<std::vector<int64_t>>& paramShapes, bool withCompute,
                            const ScheduleBudget& budget) {
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("gatherSchedule: the plan is not of this scenario");
    std::vector<std::vector<int64_t>> tpShapes;
    for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
    return ScheduleBuilder(scenario, plan, paramShapes, tpShapes, budget).build(true, withCompute);
}

}  // namespace hsdp
