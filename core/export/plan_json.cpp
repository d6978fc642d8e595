// SPDX-License-Identifier: Apache-2.0
#include "export/plan_json.h"

#include <charconv>
#include <string>

#include "plan/grouping.h"
#include "plan/ownership.h"

namespace hsdp {

namespace {

// The shortest decimal that reads back as `value`: a coefficient the scenario
// wrote as 3.4445 is kept as a float, and printed as a double it would read
// 3.444499969482422.
double asWritten(float value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    double out = value;
    std::from_chars(text, end, out);
    return out;
}

using Json = nlohmann::ordered_json;

// Plans of big worlds hold millions of values; the helpers below build them
// with one allocation per container and without ordered_map's linear
// duplicate-key search (every key here is unique by construction).
template <typename T>
Json array(const std::vector<T>& values) {
    return Json(values);
}

Json arrayWithCapacity(size_t n) {
    Json out = Json::array();
    out.get_ref<Json::array_t&>().reserve(n);
    return out;
}

Json objectWithCapacity(size_t n) {
    Json out = Json::object();
    out.get_ref<Json::object_t&>().reserve(n);
    return out;
}

template <typename T, typename F>
Json arrayOf(const std::vector<T>& items, F toJson) {
    Json out = arrayWithCapacity(items.size());
    for (const auto& item : items) out.get_ref<Json::array_t&>().push_back(toJson(item));
    return out;
}

void put(Json& object, std::string key, Json value) {
    object.get_ref<Json::object_t&>().emplace_back(std::move(key), std::move(value));
}

Json coordMap(const std::map<int, Coord>& byParam) {
    Json out = objectWithCapacity(byParam.size());
    for (const auto& [param, coord] : byParam) put(out, std::to_string(param), array(coord));
    return out;
}

Json meshesJson(const Scenario& scenario) {
    Json out = Json::array();
    for (const Mesh& m : scenario.meshes)
        out.push_back({{"name", m.name},
                       {"shape", array(m.shape)},
                       {"dim_names", array(m.dimNames)},
                       {"ranks", array(m.ranks)}});
    return out;
}

Json paramsJson(const Plan& plan, const Scenario& scenario) {
    std::vector<int> groupOfParam(scenario.params.size(), -1);
    for (const Group& g : plan.groups)
        for (int p : g.params)
            if (static_cast<size_t>(p) < groupOfParam.size())
                groupOfParam[static_cast<size_t>(p)] = g.id;
    Json out = arrayWithCapacity(scenario.params.size());
    const bool optimizers = hasAdamWParams(scenario);  // a Muon-only plan reads as before
    for (const ParamSpec& p : scenario.params) {
        Json placements = nullptr;
        if (p.placements) {
            placements = Json::array();
            for (const auto& pl : *p.placements) placements.push_back(pl.toString());
        }
        int group = groupOfParam[static_cast<size_t>(p.index)];
        out.push_back({{"index", p.index},
                       {"name", p.name},
                       {"mesh", p.mesh},
                       {"shape", array(p.shape)},
                       {"dtype", std::string(dtypeName(p.dtype))},
                       {"numel", p.numel()},
                       {"placements", placements},
                       {"requires_grad", p.requiresGrad},
                       {"group", group >= 0 ? Json(group) : Json(nullptr)}});
        if (optimizers) out.back()["optimizer"] = std::string(paramOptimizerName(p.optimizer));
    }
    return out;
}

Json layoutJson(const GroupLayout& layout) {
    Json axes = Json::array();
    for (const auto& [meshDim, tensorDim] : layout.shardAxes) axes.push_back({meshDim, tensorDim});
    return {{"tensor_ndim", layout.tensorNdim},
            {"shard_axes", axes},
            {"replicate_mesh_dims", array(layout.replicateMeshDims)},
            {"is_last2d_sharded", layout.isLast2dSharded}};
}

Json loadsJson(const Batch& batch) {
    Json loads = arrayWithCapacity(batch.loads.size());
    for (size_t c = 0; c < batch.loads.size(); ++c) {
        Json entry = objectWithCapacity(2);
        put(entry, "coord", array(batch.loadCoord(c)));
        put(entry, "numel", batch.loads[c]);
        loads.get_ref<Json::array_t&>().push_back(std::move(entry));
    }
    return loads;
}

// Every replicate coordinate, in order; the plan keeps only those that
// compute something, the others compute nothing ({}).
Json shardComputeJson(const Batch& batch) {
    const int64_t count = coordinateCount(batch.replicateSizes);
    Json compute = arrayWithCapacity(size_t(count));
    auto next = batch.shardCompute.begin();
    const std::map<int, Coord> nothing;
    for (int64_t c = 0; c < count; ++c) {
        Coord coord = coordinateAt(c, batch.replicateSizes);
        const bool listed = next != batch.shardCompute.end() && next->replicateCoord == coord;
        Json entry = objectWithCapacity(2);
        put(entry, "replicate_coord", array(coord));
        put(entry, "compute_coord", coordMap(listed ? next->computeCoord : nothing));
        compute.get_ref<Json::array_t&>().push_back(std::move(entry));
        if (listed) ++next;
    }
    return compute;
}

Json batchJson(const Batch& batch) {
    Json out = objectWithCapacity(7);
    put(out, "params", array(batch.params));
    put(out, "numel", batch.numel);
    put(out, "replicate_sizes", array(batch.replicateSizes));
    put(out, "is_shard", batch.isShard);
    put(out, "owner", coordMap(batch.owner));
    put(out, "loads", loadsJson(batch));
    if (batch.isShard) put(out, "shard_compute", shardComputeJson(batch));
    return out;
}

Json groupJson(const Group& g) {
    Json batches = arrayWithCapacity(g.batches.size());
    for (const auto& b : g.batches) batches.get_ref<Json::array_t&>().push_back(batchJson(b));
    Json out = objectWithCapacity(9);
    put(out, "id", g.id);
    put(out, "mesh", g.mesh);
    put(out, "mesh_shape", array(g.meshShape));
    put(out, "replicate_mesh_dims", array(g.replicateMeshDims));
    put(out, "shard_mesh_dims", array(g.shardMeshDims));
    put(out, "layout", layoutJson(g.layout));
    put(out, "params", array(g.params));
    put(out, "batches", std::move(batches));
    if (isGathered(g))
        put(out, "gather_strategy",
            Json{{"chosen", gatherStrategyName(g.gatherStrategy)},
                 {"auto", g.gatherStrategyAuto},
                 {"why", g.gatherStrategyWhy}});
    return out;
}

Json placementsJson(const std::vector<Placement>& placements) {
    Json out = arrayWithCapacity(placements.size());
    for (const auto& p : placements) out.get_ref<Json::array_t&>().push_back(p.toString());
    return out;
}

Json redistributionStepJson(const RedistributionStep& step) {
    return {{"op", std::string(redistributionOpName(step.op))},
            {"mesh_dim", step.meshDim},
            {"before", placementsJson(step.before)},
            {"after", placementsJson(step.after)}};
}

Json classificationJson(const std::optional<TpClassification>& c) {
    if (!c) return nullptr;
    Json out = {{"kind", std::string(tpKindName(c->kind))}};
    if (c->tensorDim) out["tensor_dim"] = *c->tensorDim;
    if (c->reduceOp) out["reduce_op"] = std::string(reduceOpName(*c->reduceOp));
    return out;
}

// Pinned: mesh_ranks, path, op?, reason?. Added: what the run does (`runs`,
// which differs from `path` when the fallback is widened) and its `steps`.
Json tpGroupJson(const TpGroupDecision& g) {
    Json entry = {{"mesh_ranks", array(g.meshRanks)}, {"path", std::string(tpPathName(g.path))}};
    if (g.op) entry["op"] = std::string(tpLoweredOpName(*g.op));
    if (g.reason) entry["reason"] = std::string(tpFallbackReasonName(*g.reason));
    entry["runs"] = std::string(tpPathName(g.runs));
    entry["steps"] = arrayOf(g.steps, redistributionStepJson);
    return entry;
}

Json tpJson(const TpPlan& t, const Scenario& scenario) {
    Json out = {{"index", t.index}, {"name", t.name}};
    if (static_cast<size_t>(t.index) < scenario.tpTransitions.size())
        out["mesh"] = scenario.tpTransitions[static_cast<size_t>(t.index)].mesh;
    out["tp_mesh_dim"] = t.tpMeshDim ? Json(*t.tpMeshDim) : Json(nullptr);
    out["classification"] = classificationJson(t.classification);
    out["groups"] = arrayOf(t.groups, tpGroupJson);
    out["fallback_steps"] = arrayOf(t.fallbackSteps, redistributionStepJson);
    return out;
}

Json diagnosticJson(const Diagnostic& d) {
    Json out = {{"severity", std::string(severityName(d.severity))},
                {"code", d.code},
                {"message", d.message}};
    if (!d.params.empty()) out["params"] = array(d.params);
    if (!d.transitions.empty()) out["transitions"] = array(d.transitions);
    return out;
}

Json ranksJson(const Plan& plan, bool adamw) {
    Json ranks = arrayWithCapacity(plan.ranks.size());
    for (const auto& r : plan.ranks) {
        Json entry = objectWithCapacity(7);
        put(entry, "rank", r.rank);
        put(entry, "owned", array(r.owned));
        put(entry, "owned_numel", r.ownedNumel);
        put(entry, "held_numel", r.heldNumel);
        put(entry, "gathered_numel", r.gatheredNumel);
        put(entry, "computed", array(r.computed));
        put(entry, "computed_numel", r.computedNumel);
        if (adamw) {
            put(entry, "adamw", array(r.adamw));
            put(entry, "adamw_numel", r.adamwNumel);
        }
        ranks.get_ref<Json::array_t&>().push_back(std::move(entry));
    }
    return ranks;
}

}  // namespace

nlohmann::ordered_json planToJson(const Plan& plan, const Scenario& scenario) {
    Json out = objectWithCapacity(16);
    put(out, "format", "hsdp-plan/1");
    put(out, "scenario", plan.scenarioName);
    put(out, "world_size", plan.worldSize);
    put(out, "effective_hsdp_replica_count",
        plan.effectiveReplicaCount ? Json(*plan.effectiveReplicaCount) : Json(nullptr));
    put(out, "alignment_bytes", plan.alignmentBytes);
    put(out, "backend", scenario.options.backend);
    put(out, "gather_strategy", gatherStrategyOptionName(scenario.options.gatherStrategy));
    // Only when the scenario sets one other than the engine's own: the
    // default plan's JSON stays as it was.
    if (const NewtonSchulzOptions& ns = scenario.options.newtonSchulz; !ns.isDefault()) {
        Json coefficients = Json::array();
        for (const auto& c : ns.coefficients)
            coefficients.push_back({asWritten(c[0]), asWritten(c[1]), asWritten(c[2])});
        put(out, "newton_schulz",
            Json{{"steps", ns.steps},
                 {"coefficients", std::move(coefficients)},
                 {"dtype", ns.dtype == DType::BF16 ? "bf16" : "fp32"}});
    }
    put(out, "meshes", meshesJson(scenario));
    put(out, "params", paramsJson(plan, scenario));
    put(out, "no_comm_params", array(plan.noCommParams));
    put(out, "rejected_params", array(plan.rejectedParams));
    const bool adamw = hasAdamWParams(scenario);
    if (adamw) put(out, "adamw_params", array(plan.adamwParams));
    put(out, "groups", arrayOf(plan.groups, groupJson));
    put(out, "schedule", arrayOf(plan.schedule, [](const ScheduleEntry& s) {
            return Json::array({s.group, s.batch});
        }));
    put(out, "ranks", ranksJson(plan, adamw));
    put(out, "tp_transitions",
        arrayOf(plan.tpTransitions, [&](const TpPlan& t) { return tpJson(t, scenario); }));
    put(out, "diagnostics", arrayOf(plan.diagnostics, diagnosticJson));
    return out;
}

}  // namespace hsdp
