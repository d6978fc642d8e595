// SPDX-License-Identifier: Apache-2.0
#include "cost/step_memory_model.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "collectives/newton_schulz.h"
#include "collectives/owner_exchange.h"
#include "cost/detail/broadcast_groups.h"
#include "cost/detail/gather_slot.h"
#include "plan/ownership.h"
#include "run/optimizer_step.h"
#include "step/entry_owners.h"
#include "step/entry_view.h"
#include "tensor/packing.h"
#include "types/geometry.h"
#include "types/stopped.h"

namespace hsdp {

namespace {

constexpr int64_t kF32 = 4;  // full matrices and updates are fp32 whatever the dtype

// What one schedule entry (or the local params) does to a rank's memory on
// top of what the rank holds when it starts: everything the stretch
// allocates it frees again, so it is its high-water mark over the start
// (`peak`), what made that mark up (by kind, at its first moment) and the
// bytes it allocated. That is the same whatever the rank holds, so ranks
// that do the same share it, and the rank's step is its resident tally with
// its stretches laid on top (RankMemory): byte for byte the replay of every
// buffer in order.
struct Stretch {
    int64_t peak = 0;
    MemoryBytes atPeak{};
    int64_t allocated = 0;
};

Stretch stretchOf(const MemoryTally& tally) {
    const StepMemory m = tally.result(0);
    return {m.peakBytes, m.atPeak, m.allocatedBytes};
}

// `a` then `b`: the later mark wins only when higher, as the tally keeps the first.
Stretch then(const Stretch& a, const Stretch& b) {
    Stretch out = b.peak > a.peak ? b : a;
    out.allocated = a.allocated + b.allocated;
    return out;
}

// A rank's step: the resident shards, then each entry's stretch in order.
class RankMemory {
public:
    // `entries`: how many marks to make room for; 0 keeps none (only the peak).
    RankMemory(int rank, const MemoryBytes& resident, size_t entries) : keepEntries_(entries > 0) {
        out_.rank = rank;
        out_.residentBytes = totalBytes(resident);
        out_.allocatedBytes = out_.residentBytes;
        out_.peakBytes = out_.residentBytes;
        if (out_.peakBytes > 0) out_.atPeak = resident;
        resident_ = resident;
        out_.entries.reserve(entries);
    }

    void entry(int index, const Stretch* s) {
        const int64_t base = out_.residentBytes;
        if (keepEntries_) out_.entries.push_back({index, base + (s ? s->peak : 0)});
        if (!s) return;
        out_.allocatedBytes += s->allocated;
        if (base + s->peak <= out_.peakBytes) return;
        out_.peakBytes = base + s->peak;
        for (int k = 0; k < kMemoryKinds; ++k)
            out_.atPeak[size_t(k)] = resident_[size_t(k)] + s->atPeak[size_t(k)];
    }

    StepMemory take() { return std::move(out_); }

private:
    StepMemory out_;
    MemoryBytes resident_{};
    bool keepEntries_ = true;
};

// The mesh dims any of `params` is not replicated over, ascending: what
// their local pieces depend on.
std::vector<int> pieceDims(const Scenario& scenario, const std::vector<int>& params, int ndim) {
    std::vector<bool> used(size_t(ndim), false);
    for (int p : params) {
        const auto& placements = scenario.params[size_t(p)].placements;
        if (!placements) continue;
        for (size_t d = 0; d < placements->size() && int(d) < ndim; ++d)
            if (!(*placements)[d].isReplicate()) used[d] = true;
    }
    std::vector<int> dims;
    for (int d = 0; d < ndim; ++d)
        if (used[size_t(d)]) dims.push_back(d);
    return dims;
}

// The dims in `a` or `b`, ascending.
std::vector<int> unionOf(const std::vector<int>& a, const std::vector<int>& b) {
    std::set<int> dims(a.begin(), a.end());
    dims.insert(b.begin(), b.end());
    return {dims.begin(), dims.end()};
}

// Predicts every rank's step in the order of run/optimizer_step.cpp
// (runScheduleEntry, runLocalParams). Each entry's stretch is worked out
// once per case of the ranks that share it (the params a replicate
// coordinate owns, the coordinates their pieces and broadcasts depend on),
// so a rank costs a look-up per entry, not a replay of its batch.
class MemoryModel {
public:
    MemoryModel(const Scenario& scenario, const Plan& plan,
                const std::vector<std::vector<int64_t>>& shapes, std::stop_token stop, bool entries)
        : scenario_(scenario),
          plan_(plan),
          shapes_(shapes),
          stop_(std::move(stop)),
          keepEntries_(entries),
          numelCache_(scenario.params.size()) {
        for (const auto& spec : scenario.params)
            paramMesh_.push_back(spec.placements ? scenario.findMesh(spec.mesh) : nullptr);
    }

    std::vector<StepMemory> run() {
        const auto resident = residentBytes();
        const size_t entries = keepEntries_ ? plan_.schedule.size() + 1 : 0;
        for (int r = 0; r < scenario_.worldSize; ++r)
            ranks_.emplace_back(r, resident[size_t(r)], entries);
        for (size_t i = 0; i < plan_.schedule.size(); ++i) {
            throwIfStopped(stop_);
            scheduleEntry(int(i));
        }
        localParams();
        std::vector<StepMemory> out;
        out.reserve(ranks_.size());
        for (auto& rank : ranks_) out.push_back(rank.take());
        return out;
    }

private:
    // One owner class of an entry with, for a gathered batch, how its
    // update broadcast groups.
    struct OwnerWork {
        int id = 0;  // its position in owners_, for the case key
        const OwnerClass* owner = nullptr;
        std::optional<BroadcastGroups> updates;
    };

    const ParamSpec& spec(int p) const { return scenario_.params[size_t(p)]; }
    int64_t numel(int p) const { return shapeNumel(shapes_[size_t(p)]); }

    std::vector<int64_t> localShape(int p, const Coord& coord) const {
        const Mesh* mesh = paramMesh_[size_t(p)];
        if (!spec(p).placements || !mesh) return shapes_[size_t(p)];
        return shardLayout(shapes_[size_t(p)], *spec(p).placements, mesh->shape, coord)
            .localShape();
    }

    // A param's local size depends only on the coordinates along the mesh
    // dims it is not replicated over: one slot per such coordinate, shared.
    int64_t localNumel(int p, const Coord& coord) {
        const Mesh* mesh = paramMesh_[size_t(p)];
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

    const std::vector<Coord>& coordsOf(const Mesh& mesh) {
        auto [it, isNew] = coords_.try_emplace(&mesh);
        if (isNew) it->second = allCoordinates(mesh.shape);  // row-major: mesh.ranks' order
        return it->second;
    }

    // --- resident (initialState): W, and G with its momentum unless frozen
    // (AdamW: its two moments, each at the dtype's size as Muon's momentum) ---

    std::vector<MemoryBytes> residentBytes() {
        std::vector<MemoryBytes> out(size_t(scenario_.worldSize));
        std::map<const Mesh*, std::vector<int>> byMesh;
        MemoryBytes everywhere{};  // the params without placements: on every rank, whole
        for (const auto& s : scenario_.params) {
            if (plan_.isRejected(s.index)) continue;
            if (!s.placements)
                addResident(everywhere, s.index, {});
            else if (paramMesh_[size_t(s.index)])
                byMesh[paramMesh_[size_t(s.index)]].push_back(s.index);
        }
        for (auto& bytes : out) bytes = everywhere;
        for (const auto& [mesh, params] : byMesh) residentOn(*mesh, params, out);
        return out;
    }

    void addResident(MemoryBytes& bytes, int p, const Coord& coord) {
        const int64_t b = localNumel(p, coord) * dtypeSize(spec(p).dtype);
        bytes[size_t(MemoryKind::Param)] += b;
        if (!spec(p).requiresGrad) return;
        bytes[size_t(MemoryKind::Grad)] += b;
        bytes[size_t(MemoryKind::Momentum)] += spec(p).isAdamW() ? 2 * b : b;
    }

    // The params on one mesh, summed once per coordinate along the dims they are sharded over.
    void residentOn(const Mesh& mesh, const std::vector<int>& params,
                    std::vector<MemoryBytes>& out) {
        const auto dims = pieceDims(scenario_, params, mesh.ndim());
        std::unordered_map<int64_t, MemoryBytes> byPiece;
        const auto& coords = coordsOf(mesh);
        for (size_t pos = 0; pos < coords.size(); ++pos) {
            auto [it, isNew] = byPiece.try_emplace(indexOver(dims, mesh.shape, coords[pos]));
            if (isNew)
                for (int p : params) addResident(it->second, p, coords[pos]);
            auto& bytes = out[size_t(mesh.ranks[pos])];
            for (int k = 0; k < kMemoryKinds; ++k) bytes[size_t(k)] += it->second[size_t(k)];
        }
    }

    // --- a schedule entry (runScheduleEntry) ---

    void scheduleEntry(int index) {
        const ScheduleEntry& e = plan_.schedule[size_t(index)];
        const Group& group = plan_.groups.at(size_t(e.group));
        const Batch& batch = group.batches.at(size_t(e.batch));
        const Mesh& mesh = scenario_.mesh(group.mesh);
        EntryView v{index, group, batch, e.batch, mesh, {}};
        startEntry(v);
        const auto& coords = coordsOf(mesh);
        for (size_t pos = 0; pos < coords.size(); ++pos) {
            v.coord = coords[pos];
            ranks_[size_t(mesh.ranks[pos])].entry(index, &stretchAt(v));
        }
        for (int r = 0; r < scenario_.worldSize; ++r)
            if (!mesh.contains(r)) ranks_[size_t(r)].entry(index, nullptr);
    }

    // The owner classes and the replica broadcast (each owned param the
    // ranks hold, rooted at its owner), and the dims each case depends on.
    void startEntry(const EntryView& v) {
        owners_.clear();
        replicaRoots_.clear();
        replicaParams_.clear();
        stretches_.clear();
        replicaStretches_.clear();
        replicaBytes_.clear();
        gatherBuffers_.clear();
        exchanges_.clear();
        entryOwners_ = entryOwners(scenario_, v.group, v.batch, v.mesh, "predictStepMemory");
        replicaParams_ = entryOwners_.owned;
        replicaRoots_ = entryOwners_.owners;
        int id = 0;
        ownerByIndex_.assign(size_t(coordinateCount(v.batch.replicateSizes)), nullptr);
        for (const auto& [coord, owner] : entryOwners_.classes) {
            OwnerWork& work = owners_[coord];
            work.id = id++;
            work.owner = &owner;
            if (v.batch.isShard)
                work.updates.emplace(owner.computeShards, updateBroadcastDims(v.group),
                                     v.mesh.shape);
            ownerByIndex_.at(size_t(coordinateIndex(coord, v.batch.replicateSizes))) = &work;
        }
        replicaGroups_.emplace(replicaRoots_, replicaBroadcastDims(v.group), v.mesh.shape);
        caseDims(v);
    }

    // The mesh dims the ranks' stretches depend on: a replica broadcast's on
    // the pieces' dims and the outer broadcast dims (where its groups come
    // from), the owners' update also on the shard and gather dims.
    void caseDims(const EntryView& v) {
        const auto& replicaDims = replicaBroadcastDims(v.group);
        const auto pieces = pieceDims(scenario_, v.batch.params, v.mesh.ndim());
        std::vector<int> outer(replicaDims.begin(), replicaDims.end());
        if (!outer.empty()) outer.pop_back();  // the innermost dim's groups do not depend on it
        replicaKeyDims_ = unionOf(outer, pieces);
        pieceKeyDims_ = pieces;
        ownerKeyDims_ =
            unionOf(unionOf(pieces, updateBroadcastDims(v.group)), gatherMeshDims(v.group));
        ownerKeySize_ = sizeOver(ownerKeyDims_, v.mesh.shape);
        replicaKeySize_ = sizeOver(replicaKeyDims_, v.mesh.shape);
    }

    // The owner class of the rank's replicate coordinate (reduced by the
    // replica count, as reducedReplicateCoord), or null: by index arithmetic,
    // as every rank of every entry asks.
    const OwnerWork* ownerAt(const EntryView& v) const {
        int64_t index = 0;
        for (size_t j = 0; j < v.group.replicateMeshDims.size(); ++j) {
            const int64_t size = v.batch.replicateSizes.at(j);
            index = index * size + v.coord[size_t(v.group.replicateMeshDims[j])] % size;
        }
        return ownerByIndex_[size_t(index)];
    }

    // The rank's stretch: its owned params' update, then the replica broadcast.
    const Stretch& stretchAt(const EntryView& v) {
        const OwnerWork* owner = ownerAt(v);
        const int64_t ownerId = owner ? owner->id : -1;
        const int64_t key =
            ((ownerId + 1) * ownerKeySize_ + indexOver(ownerKeyDims_, v.mesh.shape, v.coord)) *
                replicaKeySize_ +
            indexOver(replicaKeyDims_, v.mesh.shape, v.coord);
        auto [it, isNew] = stretches_.try_emplace(key);
        if (isNew)
            it->second = then(owner ? ownedStretch(v, *owner) : Stretch{}, replicaStretch(v));
        return it->second;
    }

    Stretch ownedStretch(const EntryView& v, const OwnerWork& work) {
        MemoryTally tally;
        if (!v.batch.isShard)
            for (int p : work.owner->owned) whole(tally, p, v.coord);
        else if (exchangesWithOwners(v.group, v.batch, RunMode::Corrected))
            exchanged(tally, v, work);
        else
            gathered(tally, v, work);
        return stretchOf(tally);
    }

    // Newton–Schulz's workspace, allocated for each 2-D slice in turn.
    static void newtonSchulz(MemoryTally& tally, const std::vector<int64_t>& shape) {
        const int64_t bytes = newtonSchulzWorkspaceBytes(shape);
        if (bytes == 0) return;
        const int64_t slices = shapeNumel(shape) / (shape[shape.size() - 2] * shape.back());
        for (int64_t s = 0; s < slices; ++s) {
            tally.add(MemoryKind::NewtonSchulz, bytes);
            tally.remove(MemoryKind::NewtonSchulz, bytes);
        }
    }

    // updateWhole: an fp32 copy of the momentum, orthogonalised in place.
    void whole(MemoryTally& tally, int p, const Coord& coord) const {
        const auto shape = localShape(p, coord);
        const int64_t bytes = shapeNumel(shape) * kF32;
        tally.add(MemoryKind::FullMatrix, bytes);
        newtonSchulz(tally, shape);
        tally.remove(MemoryKind::FullMatrix, bytes);
    }

    // The receive buffer of the all-gather over mesh dim m on the rank's
    // line: the same on all its members, so worked out once per line.
    int64_t gatherBuffer(const EntryView& v, const OwnerClass& owner, int m, int d) {
        Coord first = v.coord;
        first[size_t(m)] = 0;
        const int64_t key = int64_t(v.mesh.rankAt(first)) * v.mesh.ndim() + m;
        auto [it, isNew] = gatherBuffers_.try_emplace(key, 0);
        if (isNew)
            it->second = gatherSlotBytes(scenario_, shapes_, plan_.alignmentBytes, v.mesh, v.coord,
                                         owner.owned, m, d) *
                         v.mesh.shape[size_t(m)];
        return it->second;
    }

    // gatheredUpdate: the fused gathers (each buffer held until the next has
    // read it), the full matrices, the update payloads with Newton–Schulz on
    // the computing shard (each full matrix freed once its update is out), the
    // update broadcast.
    void gathered(MemoryTally& tally, const EntryView& v, const OwnerWork& work) {
        const OwnerClass& owner = *work.owner;
        int64_t held = -1;
        const auto& axes = v.group.layout.shardAxes;
        for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
            const auto [m, d] = *it;
            if (v.mesh.shape[size_t(m)] <= 1) continue;
            const int64_t bytes = gatherBuffer(v, owner, m, d);
            tally.add(MemoryKind::GatherBuffer, bytes);
            if (held >= 0) tally.remove(MemoryKind::GatherBuffer, held);
            held = bytes;
        }
        for (int p : owner.owned) tally.add(MemoryKind::FullMatrix, numel(p) * kF32);
        if (held >= 0) tally.remove(MemoryKind::GatherBuffer, held);
        Coord mine;
        for (int d : updateBroadcastDims(v.group)) mine.push_back(v.coord[size_t(d)]);
        for (size_t i = 0; i < owner.owned.size(); ++i) {
            const int p = owner.owned[i];
            tally.add(MemoryKind::UpdatePayload, numel(p) * kF32);
            if (owner.computeShards[i] == mine) newtonSchulz(tally, shapes_[size_t(p)]);
            tally.remove(MemoryKind::FullMatrix, numel(p) * kF32);
        }
        broadcast(tally, v, updateBroadcastDims(v.group), *work.updates,
                  [&](int k) { return numel(owner.owned[size_t(k)]) * kF32; });
        for (int p : owner.owned) tally.remove(MemoryKind::UpdatePayload, numel(p) * kF32);
    }

    // exchangedUpdate: the gather's send and receive buffers, the full
    // matrices assembled on the computing rank (held until the slices are
    // back), Newton–Schulz on each, the return's buffers.
    // One owner exchange group's members and their bytes each way.
    struct Exchange {
        OwnerExchangeGroup group;  // ranks and computers only
        ExchangeTotals toComputer, fromComputer;
    };

    void exchanged(MemoryTally& tally, const EntryView& v, const OwnerWork& work) {
        const OwnerClass& owner = *work.owner;
        const Exchange& x = exchangeOf(v, work);
        const int rank = v.mesh.rankAt(v.coord);
        const auto me = size_t(std::lower_bound(x.group.ranks.begin(), x.group.ranks.end(), rank) -
                               x.group.ranks.begin());
        auto exchange = [&](const ExchangeTotals& totals, MemoryKind kind,
                            const std::function<void()>& whileReceived) {
            tally.add(kind, totals.sent[me]);
            tally.add(kind, totals.received[me]);
            tally.remove(kind, totals.sent[me]);
            whileReceived();
            tally.remove(kind, totals.received[me]);
        };
        auto computesHere = [&](size_t i) { return size_t(x.group.computer[i]) == me; };
        exchange(x.toComputer, MemoryKind::GatherBuffer, [&] {
            for (size_t i = 0; i < owner.owned.size(); ++i)
                if (computesHere(i))
                    tally.add(MemoryKind::FullMatrix, numel(owner.owned[i]) * kF32);
        });
        for (size_t i = 0; i < owner.owned.size(); ++i)
            if (computesHere(i)) newtonSchulz(tally, shapes_[size_t(owner.owned[i])]);
        exchange(x.fromComputer, MemoryKind::UpdatePayload, [] {});
        for (size_t i = 0; i < owner.owned.size(); ++i)
            if (computesHere(i)) tally.remove(MemoryKind::FullMatrix, numel(owner.owned[i]) * kF32);
    }

    // The exchange group of v's rank and owner class, its members' totals
    // computed once per group (every member's case asks for it).
    const Exchange& exchangeOf(const EntryView& v, const OwnerWork& work) {
        const OwnerClass& owner = *work.owner;
        const auto& shardDims = updateBroadcastDims(v.group);
        std::vector<int> members = v.mesh.groupOver(shardDims, v.coord);
        const int64_t key = int64_t(work.id) * scenario_.worldSize +
                            *std::min_element(members.begin(), members.end());
        auto [it, isNew] = exchanges_.try_emplace(key);
        if (!isNew) return it->second;
        std::vector<OwnerExchangeItem> items;
        for (size_t i = 0; i < owner.owned.size(); ++i) {
            const int p = owner.owned[i];
            items.push_back({{p, shapes_[size_t(p)], *spec(p).placements, spec(p).dtype, nullptr},
                             owner.computeShards[i]});
        }
        const OwnerExchangeSetup setup{&v.mesh, v.coord, shardDims, plan_.alignmentBytes, {}};
        Exchange& x = it->second;
        x.group = ownerExchangeGroup(setup, items);
        x.toComputer =
            exchangeTotals(x.group, items, plan_.alignmentBytes, ExchangeDirection::ToComputer);
        x.fromComputer =
            exchangeTotals(x.group, items, plan_.alignmentBytes, ExchangeDirection::FromComputer);
        x.group.held.clear();  // only the totals and who computes what are read
        return x;
    }

    // replicaBroadcast: each owned, held param's updated shard in its dtype;
    // the same at every coordinate of replicaKeyDims_, so kept per entry.
    Stretch replicaStretch(const EntryView& v) {
        auto [it, isNew] =
            replicaStretches_.try_emplace(indexOver(replicaKeyDims_, v.mesh.shape, v.coord));
        if (!isNew) return it->second;
        const std::vector<int64_t>& bytes = replicaBytes(v);
        MemoryTally tally;
        for (int64_t b : bytes) tally.add(MemoryKind::ReplicaPayload, b);
        broadcast(tally, v, replicaBroadcastDims(v.group), *replicaGroups_,
                  [&](int k) { return bytes[size_t(k)]; });
        for (int64_t b : bytes) tally.remove(MemoryKind::ReplicaPayload, b);
        return it->second = stretchOf(tally);
    }

    // Each replicated param's shard bytes at the rank: they depend only on its
    // coordinate along the pieces' dims, far fewer than replicaKeyDims_'s.
    const std::vector<int64_t>& replicaBytes(const EntryView& v) {
        auto [it, isNew] =
            replicaBytes_.try_emplace(indexOver(pieceKeyDims_, v.mesh.shape, v.coord));
        if (!isNew) return it->second;
        it->second.reserve(replicaParams_.size());
        for (int p : replicaParams_)
            it->second.push_back(localNumel(p, v.coord) * dtypeSize(spec(p).dtype));
        return it->second;
    }

    // hierarchicalBroadcast: innermost dim first, one fused buffer per root
    // whose items lie on this rank's line (capped chunks share the buffer).
    template <class ItemBytes>
    void broadcast(MemoryTally& tally, const EntryView& v, const std::vector<int>& dims,
                   const BroadcastGroups& groups, ItemBytes itemBytes) const {
        for (int i = int(dims.size()) - 1; i >= 0; --i) {
            if (v.mesh.shape[size_t(dims[size_t(i)])] <= 1) continue;
            const auto* along = groups.along(i, v.coord);
            if (!along) continue;
            for (const auto& group : *along) {
                int64_t bytes = 0;
                for (int k : group.items)
                    bytes += paddedElements(itemBytes(k), plan_.alignmentBytes, 1);
                if (bytes == 0) continue;
                tally.add(MemoryKind::BroadcastBuffer, bytes);
                tally.remove(MemoryKind::BroadcastBuffer, bytes);
            }
        }
    }

    // --- after the schedule (runLocalParams): the params held whole ---

    void localParams() {
        std::vector<Stretch> each;
        for (int p : plan_.noCommParams) {
            MemoryTally tally;
            if (spec(p).requiresGrad) whole(tally, p, {});
            each.push_back(stretchOf(tally));
        }
        for (int r = 0; r < scenario_.worldSize; ++r) {
            Stretch local;
            for (size_t i = 0; i < each.size(); ++i)
                if (held(plan_.noCommParams[i], r)) local = then(local, each[i]);
            ranks_[size_t(r)].entry(-1, &local);
        }
    }

    bool held(int p, int rank) const {
        if (!spec(p).placements) return true;
        return paramMesh_[size_t(p)] && paramMesh_[size_t(p)]->contains(rank);
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const std::vector<std::vector<int64_t>>& shapes_;
    std::stop_token stop_;
    bool keepEntries_ = true;
    std::vector<const Mesh*> paramMesh_;
    std::vector<std::vector<int64_t>> numelCache_;  // [param][projected coordinate]
    std::unordered_map<const Mesh*, std::vector<Coord>> coords_;
    std::vector<RankMemory> ranks_;
    // Of the entry being predicted:
    EntryOwners entryOwners_;
    std::map<Coord, OwnerWork> owners_;           // replicate coordinate -> its class's work
    std::vector<const OwnerWork*> ownerByIndex_;  // by replicate coordinate index; null: none
    std::vector<int> replicaParams_;
    std::vector<Coord> replicaRoots_;
    std::optional<BroadcastGroups> replicaGroups_;
    std::vector<int> replicaKeyDims_, ownerKeyDims_, pieceKeyDims_;
    int64_t ownerKeySize_ = 1, replicaKeySize_ = 1;
    std::unordered_map<int64_t, Stretch> stretches_;                  // by case (stretchAt)
    std::unordered_map<int64_t, Stretch> replicaStretches_;           // by replicaKeyDims_ index
    std::unordered_map<int64_t, std::vector<int64_t>> replicaBytes_;  // by pieceKeyDims_ index
    std::unordered_map<int64_t, int64_t> gatherBuffers_;  // by line: first rank, mesh dim
    std::unordered_map<int64_t, Exchange> exchanges_;     // by owner class and first member
};

}  // namespace

std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan,
                                          const std::vector<std::vector<int64_t>>& paramShapes,
                                          std::stop_token stop) {
    if (paramShapes.size() != scenario.params.size())
        throw std::invalid_argument("predictStepMemory: one shape per param");
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("predictStepMemory: the plan is not of this scenario");
    return MemoryModel(scenario, plan, paramShapes, std::move(stop), true).run();
}

std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan,
                                          std::stop_token stop) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    return predictStepMemory(scenario, plan, shapes, std::move(stop));
}

std::vector<StepMemory> predictStepPeaks(const Scenario& scenario, const Plan& plan,
                                         std::stop_token stop) {
    if (plan.worldSize != scenario.worldSize)
        throw std::invalid_argument("predictStepPeaks: the plan is not of this scenario");
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    return MemoryModel(scenario, plan, shapes, std::move(stop), false).run();
}

}  // namespace hsdp
