// SPDX-License-Identifier: Apache-2.0
#include "plan/tp_lowering.h"

#include <algorithm>
#include <stdexcept>

#include "plan/grouping.h"

namespace hsdp {

std::optional<TpClassification> classifyTpTransition(const std::vector<Placement>& src,
                                                     const std::vector<Placement>& dst,
                                                     const std::vector<std::string>& meshDimNames) {
    if (src == dst) return TpClassification{TpKind::Identity, std::nullopt, std::nullopt};
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
        return TpClassification{TpKind::AllGather, from.dim, std::nullopt};
    if (!from.isPartial() || from.reduceOp != ReduceOp::Sum) return std::nullopt;
    if (to.isReplicate()) return TpClassification{TpKind::AllReduce, std::nullopt, ReduceOp::Sum};
    if (to.isShard()) return TpClassification{TpKind::ReduceScatter, to.dim, ReduceOp::Sum};
    return std::nullopt;
}

TpLoweredOp loweredOp(TpKind kind, const std::string& backend) {
    switch (kind) {
        case TpKind::AllGather:
            return TpLoweredOp::AllGather;
        case TpKind::AllReduce:
            return TpLoweredOp::AllReduce;
        case TpKind::ReduceScatter:
            return backend.find("gloo") != std::string::npos ? TpLoweredOp::AllReduceShard
                                                             : TpLoweredOp::ReduceScatter;
        case TpKind::Identity:
            break;
    }
    throw std::invalid_argument("an identity transition has no lowered op");
}

std::vector<RedistributionStep> loweredSteps(TpLoweredOp op, int tpDim,
                                             const std::vector<Placement>& src,
                                             const std::vector<Placement>& dst) {
    using Op = RedistributionOp;
    switch (op) {
        case TpLoweredOp::AllGather:
            return {{Op::AllGather, tpDim, src, dst}};
        case TpLoweredOp::AllReduce:
            return {{Op::AllReduce, tpDim, src, dst}};
        case TpLoweredOp::ReduceScatter:
            return {{Op::ReduceScatter, tpDim, src, dst}};
        case TpLoweredOp::AllReduceShard: {
            std::vector<Placement> reduced = src;  // after the reduction: R on the tp dim
            reduced[size_t(tpDim)] = Placement::replicate();
            return {{Op::AllReduce, tpDim, src, reduced}, {Op::LocalChunk, tpDim, reduced, dst}};
        }
    }
    return {};
}

namespace {

TpGroupDecision seedDecision(const std::optional<TpClassification>& classification,
                             std::vector<int> ranks, const std::string& backend) {
    TpGroupDecision decision;
    // The process group orders its ranks ascending; the seed falls back when they differ.
    if (!std::is_sorted(ranks.begin(), ranks.end())) {
        decision.path = TpPath::Fallback;
        decision.reason = TpFallbackReason::RankOrder;
    } else if (!classification) {
        decision.path = TpPath::Fallback;
        decision.reason = TpFallbackReason::Unsupported;
    } else if (classification->kind == TpKind::Identity) {
        decision.path = TpPath::Identity;
    } else {
        decision.path = TpPath::Lowered;
        decision.op = loweredOp(classification->kind, backend);
    }
    decision.meshRanks = std::move(ranks);
    return decision;
}

// What each group runs. Groups of one transition must agree on the mesh dims
// they communicate over: when some fall back and the fallback also uses mesh
// dims other than tp, the others run the fallback too (widened).
void assignRunSteps(TpPlan& plan, const TpTransition& transition) {
    bool anyFallback = false, anyOther = false;
    for (const auto& g : plan.groups) (g.path == TpPath::Fallback ? anyFallback : anyOther) = true;
    const bool spans =
        std::any_of(plan.fallbackSteps.begin(), plan.fallbackSteps.end(),
                    [&](const RedistributionStep& s) { return s.meshDim != *plan.tpMeshDim; });
    const bool widen = anyFallback && anyOther && spans;
    for (auto& g : plan.groups) {
        g.runs = widen ? TpPath::Fallback : g.path;
        if (g.runs == TpPath::Fallback)
            g.steps = plan.fallbackSteps;
        else if (g.runs == TpPath::Lowered)
            g.steps = loweredSteps(*g.op, *plan.tpMeshDim, transition.src, transition.dst);
    }
}

}  // namespace

TpPlan planTpTransition(const TpTransition& transition, const Mesh& mesh,
                        const std::string& backend) {
    TpPlan plan;
    plan.index = transition.index;
    plan.name = transition.name;
    plan.classification = classifyTpTransition(transition.src, transition.dst, mesh.dimNames);
    plan.fallbackSteps =
        planRedistribution(transition.src, transition.dst, int(transition.shape.size()));
    plan.tpMeshDim = mesh.dimIndex("tp");
    if (!plan.tpMeshDim) return plan;  // no TP path at all
    for (auto& ranks : mesh.groupsAlong(*plan.tpMeshDim))
        plan.groups.push_back(seedDecision(plan.classification, std::move(ranks), backend));
    assignRunSteps(plan, transition);
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
        if (group.reason != TpFallbackReason::RankOrder) continue;
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
