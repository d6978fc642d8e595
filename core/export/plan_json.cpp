#include "export/plan_json.h"

#include <string>

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

template <typename T>
Json array(const std::vector<T>& values) {
    Json out = Json::array();
    for (const auto& v : values) out.push_back(v);
    return out;
}

Json coordMap(const std::map<int, Coord>& byParam) {
    Json out = Json::object();
    for (const auto& [param, coord] : byParam) out[std::to_string(param)] = array(coord);
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
    Json out = Json::array();
    for (const ParamSpec& p : scenario.params) {
        Json placements = nullptr;
        if (p.placements) {
            placements = Json::array();
            for (const auto& pl : *p.placements) placements.push_back(pl.toString());
        }
        const Group* group = plan.groupOf(p.index);
        out.push_back({{"index", p.index},
                       {"name", p.name},
                       {"mesh", p.mesh},
                       {"shape", array(p.shape)},
                       {"dtype", std::string(dtypeName(p.dtype))},
                       {"numel", p.numel()},
                       {"placements", placements},
                       {"requires_grad", p.requiresGrad},
                       {"group", group ? Json(group->id) : Json(nullptr)}});
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

Json batchJson(const Batch& batch) {
    Json loads = Json::array();
    for (const auto& l : batch.loads)
        loads.push_back({{"coord", array(l.coord)}, {"numel", l.numel}});
    Json out = {{"params", array(batch.params)},
                {"numel", batch.numel},
                {"replicate_sizes", array(batch.replicateSizes)},
                {"is_shard", batch.isShard},
                {"owner", coordMap(batch.owner)},
                {"loads", loads}};
    if (batch.isShard) {
        Json compute = Json::array();
        for (const auto& sc : batch.shardCompute)
            compute.push_back({{"replicate_coord", array(sc.replicateCoord)},
                               {"compute_coord", coordMap(sc.computeCoord)}});
        out["shard_compute"] = compute;
    }
    return out;
}

Json groupJson(const Group& g) {
    Json batches = Json::array();
    for (const auto& b : g.batches) batches.push_back(batchJson(b));
    return {{"id", g.id},
            {"mesh", g.mesh},
            {"mesh_shape", array(g.meshShape)},
            {"replicate_mesh_dims", array(g.replicateMeshDims)},
            {"shard_mesh_dims", array(g.shardMeshDims)},
            {"layout", layoutJson(g.layout)},
            {"params", array(g.params)},
            {"batches", batches}};
}

Json tpJson(const TpPlan& t, const Scenario& scenario) {
    Json cls = nullptr;
    if (t.classification) {
        cls = {{"kind", t.classification->kind}};
        if (t.classification->tensorDim) cls["tensor_dim"] = *t.classification->tensorDim;
        if (t.classification->reduceOp) cls["reduce_op"] = *t.classification->reduceOp;
    }
    Json groups = Json::array();
    for (const auto& g : t.groups) {
        Json entry = {{"mesh_ranks", array(g.meshRanks)}, {"path", g.path}};
        if (!g.op.empty()) entry["op"] = g.op;
        if (!g.reason.empty()) entry["reason"] = g.reason;
        groups.push_back(entry);
    }
    Json out = {{"index", t.index}, {"name", t.name}};
    if (static_cast<size_t>(t.index) < scenario.tpTransitions.size())
        out["mesh"] = scenario.tpTransitions[static_cast<size_t>(t.index)].mesh;
    out["tp_mesh_dim"] = t.tpMeshDim ? Json(*t.tpMeshDim) : Json(nullptr);
    out["classification"] = cls;
    out["groups"] = groups;
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

}  // namespace

nlohmann::ordered_json planToJson(const Plan& plan, const Scenario& scenario) {
    Json out;
    out["format"] = "hsdp-plan/1";
    out["scenario"] = plan.scenarioName;
    out["world_size"] = plan.worldSize;
    out["effective_hsdp_replica_count"] =
        plan.effectiveReplicaCount ? Json(*plan.effectiveReplicaCount) : Json(nullptr);
    out["alignment_bytes"] = plan.alignmentBytes;
    out["backend"] = scenario.options.backend;
    out["meshes"] = meshesJson(scenario);
    out["params"] = paramsJson(plan, scenario);
    out["no_comm_params"] = array(plan.noCommParams);
    out["rejected_params"] = array(plan.rejectedParams);
    Json groups = Json::array();
    for (const auto& g : plan.groups) groups.push_back(groupJson(g));
    out["groups"] = groups;
    Json schedule = Json::array();
    for (const auto& s : plan.schedule) schedule.push_back({s.group, s.batch});
    out["schedule"] = schedule;
    Json ranks = Json::array();
    for (const auto& r : plan.ranks)
        ranks.push_back(
            {{"rank", r.rank}, {"owned", array(r.owned)}, {"owned_numel", r.ownedNumel}});
    out["ranks"] = ranks;
    Json tp = Json::array();
    for (const auto& t : plan.tpTransitions) tp.push_back(tpJson(t, scenario));
    out["tp_transitions"] = tp;
    Json diagnostics = Json::array();
    for (const auto& d : plan.diagnostics) diagnostics.push_back(diagnosticJson(d));
    out["diagnostics"] = diagnostics;
    return out;
}

}  // namespace hsdp
