// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff_json.h"

namespace hsdp {

namespace {

using Json = nlohmann::ordered_json;

template <typename T>
Json orNull(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

template <typename T, typename F>
Json sides(const std::optional<T>& before, const std::optional<T>& after, F toJson) {
    return {{"before", before ? toJson(*before) : Json(nullptr)},
            {"after", after ? toJson(*after) : Json(nullptr)}};
}

template <typename T>
Json change(const std::optional<Change<T>>& c) {
    if (!c) return nullptr;
    return {{"before", Json(c->before)}, {"after", Json(c->after)}};
}

Json changeOfOptional(const std::optional<Change<std::optional<int64_t>>>& c) {
    if (!c) return nullptr;
    return {{"before", orNull(c->before)}, {"after", orNull(c->after)}};
}

Json groupIdentityJson(const GroupIdentity& key) {
    Json axes = Json::array();
    for (const auto& [m, t] : key.shardAxes) axes.push_back({m, t});
    return {{"mesh", key.mesh},
            {"replicate_mesh_dims", key.replicateMeshDims},
            {"shard_mesh_dims", key.shardMeshDims},
            {"tensor_ndim", key.tensorNdim},
            {"shard_axes", axes},
            {"text", groupIdentityText(key)}};
}

Json paramStateJson(const ParamInPlan& p) {
    Json placements = nullptr;
    if (p.placements) {
        placements = Json::array();
        for (const auto& pl : *p.placements) placements.push_back(pl.toString());
    }
    return {{"name", p.name},
            {"index", p.index},
            {"mesh", p.mesh},
            {"shape", p.shape},
            {"dtype", std::string(dtypeName(p.dtype))},
            {"placements", placements},
            {"requires_grad", p.requiresGrad},
            {"status", std::string(paramStatusName(p.status))},
            {"group", p.group ? groupIdentityJson(*p.group) : Json(nullptr)},
            {"group_id", p.groupId >= 0 ? Json(p.groupId) : Json(nullptr)},
            {"batch", orNull(p.batch)},
            {"owner", orNull(p.owner)}};
}

Json paramDiffJson(const ParamDiff& d) {
    Json what = Json::array();
    const auto& c = d.changes;
    for (auto [flag, name] : {std::pair{c.index, "index"},
                              {c.spec, "spec"},
                              {c.status, "status"},
                              {c.group, "group"},
                              {c.batch, "batch"},
                              {c.owner, "owner"}})
        if (flag) what.push_back(name);
    return {{"name", d.name},
            {"changes", what},
            {"before", paramStateJson(d.before)},
            {"after", paramStateJson(d.after)}};
}

Json loadsJson(const std::vector<CoordLoad>& loads) {
    Json out = Json::array();
    for (const auto& l : loads) out.push_back({{"coord", l.coord}, {"numel", l.numel}});
    return out;
}

Json loadChangesJson(const std::vector<CoordLoadChange>& changes) {
    Json out = Json::array();
    for (const auto& c : changes)
        out.push_back(
            {{"coord", c.coord}, {"before", orNull(c.before)}, {"after", orNull(c.after)}});
    return out;
}

Json batchSummaryJson(const BatchSummary& b) {
    return {{"params", b.params},
            {"numel", b.numel},
            {"replicate_sizes", b.replicateSizes},
            {"is_shard", b.isShard},
            {"loads", loadsJson(b.loads)},
            {"imbalance", orNull(b.imbalance)}};
}

Json groupSummaryJson(const GroupSummary& g) {
    return {{"id", g.id},
            {"mesh_shape", g.meshShape},
            {"params", g.params},
            {"batch_count", g.batchCount},
            {"gathered", g.gathered},
            {"loads", loadsJson(g.loads)},
            {"imbalance", orNull(g.imbalance)}};
}

Json groupDiffJson(const GroupDiff& g) {
    Json batches = Json::array();
    for (const auto& b : g.batches) {
        Json entry = {{"index", b.index}};
        entry.update(sides(b.before, b.after, batchSummaryJson));
        entry["load_changes"] = loadChangesJson(b.loads);
        entry["params_changed"] = b.paramsChanged;
        entry["owners_changed"] = b.ownersChanged;
        entry["shard_compute_changed"] = b.shardComputeChanged;
        batches.push_back(std::move(entry));
    }
    Json out = {{"key", groupIdentityJson(g.key)}};
    out.update(sides(g.before, g.after, groupSummaryJson));
    out["batches"] = std::move(batches);
    return out;
}

Json scheduleJson(const std::optional<Change<std::vector<ScheduleStep>>>& schedule) {
    if (!schedule) return nullptr;
    auto steps = [](const std::vector<ScheduleStep>& s) {
        Json out = Json::array();
        for (const auto& step : s)
            out.push_back({{"group", groupIdentityText(step.group)}, {"batch", step.batch}});
        return out;
    };
    return {{"before", steps(schedule->before)}, {"after", steps(schedule->after)}};
}

Json diagnosticItemsJson(const std::vector<DiagnosticItem>& items) {
    Json out = Json::array();
    for (const auto& d : items)
        out.push_back({{"severity", std::string(severityName(d.severity))},
                       {"code", d.code},
                       {"subject", d.subject},
                       {"message", d.message}});
    return out;
}

Json diagnosticsJson(const PlanDiff& diff) {
    Json reworded = Json::array();
    for (const auto& r : diff.rewordedDiagnostics)
        reworded.push_back({{"severity", std::string(severityName(r.severity))},
                            {"code", r.code},
                            {"before", r.message.before},
                            {"after", r.message.after}});
    return {{"appeared", diagnosticItemsJson(diff.appearedDiagnostics)},
            {"disappeared", diagnosticItemsJson(diff.disappearedDiagnostics)},
            {"reworded", std::move(reworded)}};
}

template <typename T, typename F>
Json arrayOf(const std::vector<T>& items, F toJson) {
    Json out = Json::array();
    for (const auto& item : items) out.push_back(toJson(item));
    return out;
}

void scenarioPartsJson(const PlanDiff& diff, Json& out) {
    out["scenario"] = change(diff.scenarioName);
    out["world_size"] = change(diff.worldSize);
    out["effective_hsdp_replica_count"] = changeOfOptional(diff.effectiveReplicaCount);
    out["options"] = arrayOf(diff.options, [](const OptionChange& o) {
        return Json{
            {"name", o.name}, {"before", o.before}, {"after", o.after}, {"in_plan", o.inPlan}};
    });
    out["meshes"] = arrayOf(diff.meshes, [](const MeshDiff& m) {
        Json entry = {{"name", m.name}};
        entry.update(sides(m.before, m.after, [](const MeshSummary& s) {
            return Json{{"shape", s.shape}, {"dim_names", s.dimNames}, {"ranks", s.ranks}};
        }));
        return entry;
    });
}

}  // namespace

nlohmann::ordered_json planDiffToJson(const PlanDiff& diff, const std::string& beforeLabel,
                                      const std::string& afterLabel) {
    Json out = {{"format", "hsdp-plan-diff/1"},
                {"before", beforeLabel},
                {"after", afterLabel},
                {"same", diff.same()}};
    scenarioPartsJson(diff, out);
    out["params"] = {{"added", arrayOf(diff.addedParams, paramStateJson)},
                     {"removed", arrayOf(diff.removedParams, paramStateJson)},
                     {"changed", arrayOf(diff.changedParams, paramDiffJson)}};
    out["groups"] = arrayOf(diff.groups, groupDiffJson);
    out["schedule"] = scheduleJson(diff.schedule);
    out["ranks"] = arrayOf(diff.ranks, [](const RankDiff& r) {
        Json entry = {{"rank", r.rank}};
        entry.update(sides(r.before, r.after, [](const RankSummary& s) {
            return Json{{"owned", s.owned},
                        {"owned_numel", s.ownedNumel},
                        {"computed", s.computed},
                        {"computed_numel", s.computedNumel}};
        }));
        return entry;
    });
    out["tp_transitions"] = {{"added", diff.addedTransitions},
                             {"removed", diff.removedTransitions},
                             {"changed", diff.changedTransitions},
                             {"order_changed", diff.transitionOrderChanged}};
    out["diagnostics"] = diagnosticsJson(diff);
    return out;
}

}  // namespace hsdp
