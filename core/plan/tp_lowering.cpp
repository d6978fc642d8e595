#include "plan/tp_lowering.h"

#include <algorithm>

#include "plan/grouping.h"

namespace hsdp {

std::optional<TpClassification> classifyTpTransition(const std::vector<Placement>& src,
                                                     const std::vector<Placement>& dst,
                                                     const std::vector<std::string>& meshDimNames) {
    if (src == dst) return TpClassification{"identity", std::nullopt, std::nullopt};
    auto tpIt = std::find(meshDimNames.begin(), meshDimNames.end(), "tp");
    if (tpIt == meshDimNames.end()) return std::nullopt;
    auto tp = static_cast<size_t>(tpIt - meshDimNames.begin());
    // zip() in the reference stops at the shorter list; a tp dim past it is not lowerable.
    size_t n = std::min(src.size(), dst.size());
    for (size_t axis = 0; axis < n; ++axis)
        if (axis != tp && !(src[axis] == dst[axis])) return std::nullopt;
    if (tp >= src.size() || tp >= dst.size()) return std::nullopt;
    const Placement& from = src[tp];
    const Placement& to = dst[tp];
    if (from.isShard() && to.isReplicate())
        return TpClassification{"all_gather", from.dim, std::nullopt};
    if (!from.isPartial() || from.reduceOp != ReduceOp::Sum) return std::nullopt;
    if (to.isReplicate()) return TpClassification{"all_reduce", std::nullopt, "sum"};
    if (to.isShard()) return TpClassification{"reduce_scatter", to.dim, "sum"};
    return std::nullopt;
}

std::string loweredOp(const std::string& kind, const std::string& backend) {
    if (kind == "reduce_scatter" && backend.find("gloo") != std::string::npos)
        return "all_reduce_shard";
    return kind;
}

TpPlan planTpTransition(const TpTransition& transition, const Mesh& mesh,
                        const std::string& backend) {
    TpPlan plan;
    plan.index = transition.index;
    plan.name = transition.name;
    plan.classification = classifyTpTransition(transition.src, transition.dst, mesh.dimNames);
    plan.tpMeshDim = mesh.dimIndex("tp");
    if (!plan.tpMeshDim) return plan;  // no TP path at all
    for (auto& ranks : mesh.groupsAlong(*plan.tpMeshDim)) {
        TpGroupDecision decision;
        // The process group orders its ranks ascending; the reference falls back when they differ.
        if (!std::is_sorted(ranks.begin(), ranks.end())) {
            decision.path = "fallback";
            decision.reason = "rank-order";
        } else if (!plan.classification) {
            decision.path = "fallback";
            decision.reason = "unsupported";
        } else if (plan.classification->kind == "identity") {
            decision.path = "identity";
        } else {
            decision.path = "lowered";
            decision.op = loweredOp(plan.classification->kind, backend);
        }
        decision.meshRanks = std::move(ranks);
        plan.groups.push_back(std::move(decision));
    }
    return plan;
}

namespace {

std::string transitionLabel(const TpTransition& t) {
    return "#" + std::to_string(t.index) + " '" + t.name + "'";
}

void reportTpPlan(const TpPlan& plan, const TpTransition& t, const Mesh& mesh,
                  DiagnosticSink& sink) {
    if (!plan.tpMeshDim) {
        sink.report(Severity::Info, codes::TpNoTpDim,
                    "mesh has no 'tp' dim; transition takes no TP collective path",
                    transitionLabel(t) + " on mesh '" + mesh.name + "'", {}, {t.index});
        return;
    }
    for (const auto& group : plan.groups) {
        if (group.reason != "rank-order") continue;
        std::string ranks;
        for (int r : group.meshRanks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
        sink.report(Severity::Warning, codes::TpRankOrderFallback,
                    "TP mesh rank order differs from the process group's ascending order; "
                    "falling back to DTensor redistribution",
                    transitionLabel(t) + " group [" + ranks + "]", {}, {t.index});
        return;  // one detail per transition is enough
    }
}

// The reader checks placement spelling only. A shard dim the transition's shape
// does not have cannot run (the lowered op or the redistribution would index a
// missing dim), so it is an error naming the transition, not a runtime failure.
void reportTpShardDims(const TpTransition& t, DiagnosticSink& sink) {
    const int ndim = static_cast<int>(t.shape.size());
    for (const auto& [side, list] : {std::pair{"src", &t.src}, std::pair{"dst", &t.dst}}) {
        for (size_t m = 0; m < list->size(); ++m) {
            const Placement& p = (*list)[m];
            if (!p.isShard()) continue;
            int64_t d = p.dim < 0 ? int64_t{p.dim} + ndim : p.dim;
            if (d >= 0 && d < ndim) continue;
            sink.report(Severity::Error, codes::TpInvalidShardDim,
                        "TP transition shards a tensor dim its shape does not have",
                        transitionLabel(t) + " " + side + " mesh dim " + std::to_string(m) + ": " +
                            p.toString() + " for tensor ndim " + std::to_string(ndim),
                        {}, {t.index});
            return;  // one detail per transition
        }
    }
}

}  // namespace

std::vector<TpPlan> planTpTransitions(const Scenario& scenario, DiagnosticSink& sink) {
    std::vector<TpPlan> plans;
    for (const TpTransition& t : scenario.tpTransitions) {
        const Mesh* mesh = resolveMesh(scenario, t.mesh);
        if (!mesh) {
            sink.report(Severity::Error, codes::UnknownMesh, "transition names an unknown mesh",
                        transitionLabel(t) + " mesh '" + t.mesh + "'", {}, {t.index});
            TpPlan plan;
            plan.index = t.index;
            plan.name = t.name;
            plans.push_back(std::move(plan));
            continue;
        }
        reportTpShardDims(t, sink);
        plans.push_back(planTpTransition(t, *mesh, scenario.options.backend));
        reportTpPlan(plans.back(), t, *mesh, sink);
    }
    return plans;
}

}  // namespace hsdp
