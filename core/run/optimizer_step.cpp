// SPDX-License-Identifier: Apache-2.0
#include "run/optimizer_step.h"

#include <algorithm>

#include "collectives/adamw_step.h"
#include "collectives/fused_gather.h"
#include "collectives/newton_schulz.h"
#include "collectives/owner_exchange.h"
#include "collectives/replicate_broadcast.h"
#include "collectives/update_slicing.h"
#include "step/entry_view.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"
#include "types/geometry.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp {

namespace {

const ParamSpec& specOf(const ExecEnv& env, int p) {
    return env.scenario->params.at(size_t(p));
}
const std::vector<int64_t>& shapeOf(const ExecEnv& env, int p) {
    return env.paramShapes.at(size_t(p));
}

std::string layoutKey(const ShardLayout& layout) {
    std::string key;
    for (const auto& set : layout.dims) {
        for (const auto& r : set)
            key += std::to_string(r.begin) + "-" + std::to_string(r.end) + ",";
        key += "|";
    }
    return key;
}

CollectiveLabel labelFor(const char* phase, const EntryView& v) {
    CollectiveLabel label;
    label.phase = phase;
    label.scheduleIndex = v.index;
    label.group = v.group.id;
    label.batch = v.batchIndex;
    label.mesh = v.mesh.name;
    return label;
}

// The label of a compute span on param p: the entry's (phase as the cost
// model's schedule names it), with p as its only param.
CollectiveLabel computeLabel(CollectiveLabel entry, int p) {
    entry.params = {p};
    return entry;
}

// A compute span of kind `op` started at `startUs`, in the trace when the run keeps one.
void traceCompute(RankContext& ctx, std::string_view op, const CollectiveLabel& entry, int p,
                  double startUs) {
    if (ctx.tracing()) ctx.recordCompute(op, computeLabel(entry, p), startUs);
}

Coord subCoord(const Coord& coord, const std::vector<int>& dims) {
    Coord out;
    for (int d : dims) out.push_back(coord[size_t(d)]);
    return out;
}

Coord withSubCoord(Coord coord, const std::vector<int>& dims, const Coord& sub) {
    for (size_t i = 0; i < dims.size(); ++i) coord[size_t(dims[i])] = sub[i];
    return coord;
}

// What `coord` holds of parameter `p` as run (a plain tensor: all of it).
ShardLayout localLayout(const ExecEnv& env, int p, const Coord& coord) {
    const auto& spec = specOf(env, p);
    const Mesh* mesh = env.scenario->findMesh(spec.mesh);
    if (spec.placements && mesh)
        return shardLayout(shapeOf(env, p), *spec.placements, mesh->shape, coord);
    ShardLayout whole;
    for (auto n : shapeOf(env, p)) whole.dims.push_back({IndexRange{0, n}});
    return whole;
}

// Newton–Schulz on `matrix` as the scenario says (options.newton_schulz),
// shown to the observer first.
void orthogonalise(const ExecEnv& env, int rank, int p, Tensor& matrix) {
    if (env.observer) env.observer->orthogonalising(rank, specOf(env, p), matrix.shape);
    newtonSchulzInPlace(matrix, env.scenario->options.newtonSchulz);
}

// Reports the final local tensor of every batch parameter this rank holds.
void reportFinal(RankOptimizerStep& rankStep, const std::vector<int>& params) {
    const int rank = rankStep.ctx.rank();
    for (int p : params) {
        ParamState& st = rankStep.state[size_t(p)];
        if (!st.held) continue;
        ShardLayout layout = localLayout(rankStep.env, p, st.coord);
        auto mismatch =
            compareLocal(rank, st.weight, rankStep.env.expected[size_t(p)], layout, "step");
        rankStep.env.sink->finalState(p, rank, mismatch, tensorHash(st.weight), layoutKey(layout));
        if (rankStep.env.observer)
            rankStep.env.observer->finalTensor(rank, specOf(rankStep.env, p), st.weight);
    }
}

// Owners' step 3: param -= lr·update, after checking the update slice
// against this rank's part of NS(G) (the evidence of a wrong slice).
void applyChecked(RankOptimizerStep& rankStep, int p, const Tensor& part) {
    const ExecEnv& env = rankStep.env;
    ParamState& st = rankStep.state[size_t(p)];
    const auto& spec = specOf(env, p);
    if (part.shape != st.weight.shape) {
        env.sink->stepError(p, rankStep.ctx.rank(),
                            "the update slice " + shapeText(part.shape) +
                                " does not fit the local shard " + shapeText(st.weight.shape) +
                                " (param.sub_ raises a size mismatch)");
        return;
    }
    ShardLayout layout = localLayout(env, p, st.coord);
    if (auto m = compareLocal(rankStep.ctx.rank(), part, env.expectedUpdate[size_t(p)], layout,
                              "update"))
        env.sink->updateMismatch(p, *m);
    applyUpdate(st.weight, part, env.scenario->options.lr, spec.dtype);
}

// A param held whole: Newton–Schulz on an fp32 copy of its momentum, applied;
// both traced under `entry` (phase "local").
void updateWhole(RankOptimizerStep& rankStep, int p, const CollectiveLabel& entry) {
    RankContext& ctx = rankStep.ctx;
    double startUs = ctx.nowUs();
    Tensor update = rankStep.state[size_t(p)].momentum;
    const MemoryCharge charge(MemoryKind::FullMatrix, update.numel() * int64_t(sizeof(float)));
    orthogonalise(rankStep.env, ctx.rank(), p, update);
    traceCompute(ctx, "newton_schulz", entry, p, startUs);
    startUs = ctx.nowUs();
    applyChecked(rankStep, p, update);
    traceCompute(ctx, "update", entry, p, startUs);
}

}  // namespace

std::vector<int> gatherMeshDims(const Group& group) {
    std::vector<int> dims;
    for (const auto& [meshDim, tensorDim] : group.layout.shardAxes) dims.push_back(meshDim);
    return dims;
}

const std::vector<int>& updateBroadcastDims(const Group& group) {
    return group.shardMeshDims;
}

const std::vector<int>& replicaBroadcastDims(const Group& group) {
    return group.replicateMeshDims;
}

bool exchangesWithOwners(const Group& group, const Batch& batch, RunMode mode) {
    return batch.isShard && group.gatherStrategy == GatherStrategy::AllToAll &&
           mode != RunMode::Reference;
}

std::vector<int> exchangeMeshDims(const Group& group, const Batch& batch, RunMode mode) {
    return exchangesWithOwners(group, batch, mode) ? updateBroadcastDims(group)
                                                   : std::vector<int>{};
}

std::vector<int> scheduleEntryMeshDims(const Group& group, const Batch& batch, RunMode mode) {
    std::vector<int> dims = replicaBroadcastDims(group);
    // runScheduleEntry gathers and broadcasts the update only for a gathered
    // batch, and dim by dim only under all-gather
    if (batch.isShard && !exchangesWithOwners(group, batch, mode)) {
        for (int d : gatherMeshDims(group)) dims.push_back(d);
        for (int d : updateBroadcastDims(group)) dims.push_back(d);
    }
    return dims;
}

namespace {

// The resident tensors of one held param: W, and G with its momentum unless
// frozen (AdamW: its two moments, each at the dtype's size as Muon's momentum).
void makeResident(ParamState& st, const ParamSpec& spec, const std::vector<int64_t>& shape,
                  const std::vector<Placement>& placements, const std::vector<int64_t>& meshShape) {
    st.held = true;
    auto charge = [&](MemoryKind kind, const Tensor& t) {
        st.resident.emplace_back(kind, t.numel() * dtypeSize(spec.dtype));
    };
    st.weight =
        localTensor(Truth::weight(spec.index), shape, placements, meshShape, st.coord, spec.dtype);
    charge(MemoryKind::Param, st.weight);
    if (!spec.requiresGrad) return;
    st.grad =
        localTensor(Truth::grad(spec.index), shape, placements, meshShape, st.coord, spec.dtype);
    charge(MemoryKind::Grad, st.grad);
    if (spec.isAdamW()) {
        adamwMoments(st.grad, st.momentum, st.secondMoment);
        charge(MemoryKind::Momentum, st.momentum);
        charge(MemoryKind::Momentum, st.secondMoment);
        return;
    }
    st.momentum = st.grad;  // mu * 0 + G, exactly G
    charge(MemoryKind::Momentum, st.momentum);
}

}  // namespace

std::vector<ParamState> initialState(const ExecEnv& env, int rank) {
    std::vector<ParamState> state(env.scenario->params.size());
    for (const auto& spec : env.scenario->params) {
        const int p = spec.index;
        if (env.plan->isRejected(p)) continue;
        ParamState& st = state[size_t(p)];
        const auto& shape = shapeOf(env, p);
        if (!spec.placements) {
            makeResident(st, spec, shape, {}, {});
            continue;
        }
        const Mesh* mesh = env.scenario->findMesh(spec.mesh);
        auto coord = mesh ? mesh->coordinateOf(rank) : std::nullopt;
        if (!coord) continue;
        st.coord = *coord;
        makeResident(st, spec, shape, *spec.placements, mesh->shape);
    }
    return state;
}

namespace {

// Gathered batch, steps 2-3 for the owned params: fused gather, compute on
// the shard_compute coordinate, update broadcast, slice, apply.
void gatheredUpdate(RankOptimizerStep& rankStep, const EntryView& v, const OwnerClass& mine) {
    const std::vector<int>& owned = mine.owned;
    const ExecEnv& env = rankStep.env;
    const int rank = rankStep.ctx.rank();
    const bool reference = env.mode == RunMode::Reference;
    std::vector<GatherItem> items;
    for (int p : owned)
        items.push_back({p, shapeOf(env, p), *specOf(env, p).placements, specOf(env, p).dtype,
                         &rankStep.state[size_t(p)].momentum});
    GatherSetup gatherSetup{&v.mesh, v.coord, v.group.layout.shardAxes, env.plan->alignmentBytes,
                            labelFor("gather", v)};
    GatherResult gathered = reference ? fusedGatherReference(rankStep.ctx, gatherSetup, items)
                                      : fusedGatherCorrected(rankStep.ctx, gatherSetup, items);
    if (!gathered.ok()) {
        for (int p : owned) {
            env.sink->gatherError(p, rank, gathered.error);
            env.sink->stepError(p, rank, "not updated: the fused all-gather failed");
        }
        return;
    }
    // Checking, dumping and Newton-Schulz want contiguous fp32 tensors: one
    // copy here, out of the (view-handing) gather, whose buffer is then freed.
    std::vector<Tensor> full;
    std::vector<MemoryCharge> fullCharges;
    for (size_t i = 0; i < owned.size(); ++i) {
        const int p = owned[i];
        full.push_back(gathered.full[i].toTensor());
        fullCharges.emplace_back(MemoryKind::FullMatrix, full[i].numel() * int64_t(sizeof(float)));
        env.sink->gathered(
            p, rank, compareGathered(rank, full[i], globalTensor(Truth::grad(p), shapeOf(env, p))));
        if (env.observer) env.observer->gatheredTensor(rank, specOf(env, p), full[i]);
    }
    gathered = GatherResult();
    const auto& shardDims = updateBroadcastDims(v.group);
    const Coord myShard = subCoord(v.coord, shardDims);
    std::vector<std::vector<std::byte>> payloads(owned.size());
    std::vector<MemoryCharge> payloadCharges;
    std::vector<std::vector<int64_t>> updateShapes(owned.size());
    std::vector<BroadcastItem> updateItems;
    // Newton–Schulz and the update go in the trace as the schedule has them:
    // in the update broadcast's phase.
    const CollectiveLabel entry = labelFor("update-broadcast", v);
    for (size_t i = 0; i < owned.size(); ++i) {
        const Coord& computeShard = mine.computeShards[i];
        updateShapes[i] =
            reference ? referenceGatheredShape(items[i], v.mesh.shape,
                                               withSubCoord(v.coord, shardDims, computeShard),
                                               v.group.layout.shardAxes)
                      : shapeOf(env, owned[i]);
        payloads[i] = poisonBuffer(shapeNumel(updateShapes[i]) * 4);
        payloadCharges.emplace_back(MemoryKind::UpdatePayload, int64_t(payloads[i].size()));
        if (myShard == computeShard) {
            const double startUs = rankStep.ctx.nowUs();
            orthogonalise(env, rank, owned[i], full[i]);
            encodeTensor(full[i], DType::F32, payloads[i].data());
            traceCompute(rankStep.ctx, "newton_schulz", entry, owned[i], startUs);
        }
        full[i] = Tensor();  // its update is in the payload now
        fullCharges[i].reset();
        updateItems.push_back({owned[i], computeShard, &payloads[i]});
    }
    BroadcastSetup broadcastSetup{&v.mesh, v.coord, shardDims, env.plan->alignmentBytes, 0, entry};
    hierarchicalBroadcast(rankStep.ctx, broadcastSetup, updateItems);
    for (size_t i = 0; i < owned.size(); ++i) {
        const int p = owned[i];
        const double startUs = rankStep.ctx.nowUs();
        Tensor update = decodeTensor(payloads[i].data(), DType::F32, updateShapes[i]);
        Tensor part =
            reference
                ? sliceUpdateReference(update, v.group.layout.shardAxes, v.mesh.shape, v.coord)
                : sliceUpdateCorrected(update, items[i].placements, v.mesh.shape, v.coord);
        applyChecked(rankStep, p, part);
        traceCompute(rankStep.ctx, "update", entry, p, startUs);
    }
}

// Gathered batch under the all-to-all strategy: every member sends each
// computing rank only its piece, the computing rank checks the full matrix
// and runs Newton–Schulz, and sends each member back only its slice.
void exchangedUpdate(RankOptimizerStep& rankStep, const EntryView& v, const OwnerClass& mine) {
    const std::vector<int>& owned = mine.owned;
    const ExecEnv& env = rankStep.env;
    const int rank = rankStep.ctx.rank();
    std::vector<OwnerExchangeItem> items;
    for (size_t i = 0; i < owned.size(); ++i) {
        const int p = owned[i];
        items.push_back({{p, shapeOf(env, p), *specOf(env, p).placements, specOf(env, p).dtype,
                          &rankStep.state[size_t(p)].momentum},
                         mine.computeShards[i]});
    }
    OwnerExchangeSetup setup{&v.mesh, v.coord, updateBroadcastDims(v.group),
                             env.plan->alignmentBytes, labelFor("gather", v)};
    const OwnerExchangeGroup group = ownerExchangeGroup(setup, items);
    OwnerMatrices gathered = gatherToComputers(rankStep.ctx, setup, group, items);
    const CollectiveLabel entry = labelFor("update-broadcast", v);
    for (size_t i = 0; i < owned.size(); ++i) {
        if (!group.computesHere(i)) continue;
        const int p = owned[i];
        Tensor& full = gathered.full[i];
        env.sink->gathered(
            p, rank, compareGathered(rank, full, globalTensor(Truth::grad(p), shapeOf(env, p))));
        if (env.observer) env.observer->gatheredTensor(rank, specOf(env, p), full);
        const double startUs = rankStep.ctx.nowUs();
        orthogonalise(env, rank, p, full);
        traceCompute(rankStep.ctx, "newton_schulz", entry, p, startUs);
    }
    setup.label = entry;
    const std::vector<Tensor> slices =
        returnUpdateSlices(rankStep.ctx, setup, group, items, gathered.full);
    gathered = OwnerMatrices();
    for (size_t i = 0; i < owned.size(); ++i) {
        const double startUs = rankStep.ctx.nowUs();
        applyChecked(rankStep, owned[i], slices[i]);
        traceCompute(rankStep.ctx, "update", entry, owned[i], startUs);
    }
}

// Step 3: the owners' updated params go to their replicas.
void replicaBroadcast(RankOptimizerStep& rankStep, const EntryView& v, const EntryOwners& owners) {
    const ExecEnv& env = rankStep.env;
    std::vector<std::vector<std::byte>> payloads;
    std::vector<MemoryCharge> payloadCharges;
    const std::vector<int>& params = owners.owned;
    payloads.reserve(params.size());
    std::vector<BroadcastItem> items;
    for (size_t i = 0; i < params.size(); ++i) {
        const int p = params[i];
        const Tensor& w = rankStep.state[size_t(p)].weight;
        payloads.emplace_back(size_t(w.numel() * dtypeSize(specOf(env, p).dtype)));
        payloadCharges.emplace_back(MemoryKind::ReplicaPayload, int64_t(payloads.back().size()));
        encodeTensor(w, specOf(env, p).dtype, payloads.back().data());
        items.push_back({p, owners.owners[i], &payloads.back()});
    }
    BroadcastSetup broadcastSetup{&v.mesh,
                                  v.coord,
                                  replicaBroadcastDims(v.group),
                                  env.plan->alignmentBytes,
                                  env.scenario->options.broadcastMaxBytes,
                                  labelFor("replica-broadcast", v)};
    hierarchicalBroadcast(rankStep.ctx, broadcastSetup, items);
    for (size_t i = 0; i < params.size(); ++i) {
        Tensor& w = rankStep.state[size_t(params[i])].weight;
        w = decodeTensor(payloads[i].data(), specOf(env, params[i]).dtype, w.shape);
    }
}

}  // namespace

void runScheduleEntry(RankOptimizerStep& rankStep, int scheduleIndex, const Group& group,
                      int batchIndex) {
    const Batch& batch = group.batches.at(size_t(batchIndex));
    const Mesh& mesh = rankStep.env.scenario->mesh(group.mesh);
    auto coord = mesh.coordinateOf(rankStep.ctx.rank());
    if (!coord) return;
    const EntryView v{scheduleIndex, group, batch, batchIndex, mesh, *coord};
    const EntryOwners owners =
        entryOwners(*rankStep.env.scenario, group, batch, mesh, "runScheduleEntry");
    if (const OwnerClass* mine = owners.classAt(group, batch, *coord)) {
        if (!batch.isShard) {
            const CollectiveLabel entry = labelFor("local", v);
            for (int p : mine->owned) updateWhole(rankStep, p, entry);
        } else if (exchangesWithOwners(group, batch, rankStep.env.mode)) {
            exchangedUpdate(rankStep, v, *mine);
        } else {
            gatheredUpdate(rankStep, v, *mine);
        }
    }
    replicaBroadcast(rankStep, v, owners);
    reportFinal(rankStep, batch.params);
}

namespace {

// A no-comm param's label: phase "local", outside the schedule (step -1).
CollectiveLabel localLabel(const RankOptimizerStep& rankStep, int p) {
    CollectiveLabel label;
    label.phase = "local";
    label.mesh = specOf(rankStep.env, p).mesh;
    return label;
}

// The AdamW params this rank holds: each shard updated where it lives, all
// in one span (a fused AdamW step), as the cost model predicts it.
void adamwLocal(RankOptimizerStep& rankStep, std::vector<int>& params) {
    CollectiveLabel label;
    label.phase = "local";
    for (int p : rankStep.env.plan->adamwParams) {
        if (!rankStep.state[size_t(p)].held) continue;
        params.push_back(p);
        if (!specOf(rankStep.env, p).requiresGrad) continue;
        if (label.params.empty()) label.mesh = specOf(rankStep.env, p).mesh;
        label.params.push_back(p);
    }
    if (label.params.empty()) return;
    RankContext& ctx = rankStep.ctx;
    const double startUs = ctx.nowUs();
    for (int p : label.params) {
        const ParamState& st = rankStep.state[size_t(p)];
        applyChecked(rankStep, p, adamwUpdate(st.momentum, st.secondMoment));
    }
    if (ctx.tracing()) ctx.recordCompute("update", label, startUs);
}

}  // namespace

void runLocalParams(RankOptimizerStep& rankStep) {
    std::vector<int> params;
    for (int p : rankStep.env.plan->noCommParams) {
        ParamState& st = rankStep.state[size_t(p)];
        if (!st.held) continue;
        if (specOf(rankStep.env, p).requiresGrad) updateWhole(rankStep, p, localLabel(rankStep, p));
        params.push_back(p);
    }
    adamwLocal(rankStep, params);
    reportFinal(rankStep, params);
}

}  // namespace hsdp
