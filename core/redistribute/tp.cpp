#include "redistribute/tp.h"

#include <algorithm>

#include "model/geometry.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp {

TpExecution tpExecutionFor(const TpPlan& tp, const TpTransition& spec, int rank, bool reference) {
    const int ndim = int(spec.shape.size());
    TpExecution ex;
    if (!tp.tpMeshDim || tp.groups.empty()) {  // no TP path: DTensor redistribution
        ex.path = "fallback";
        ex.steps = planRedistribution(spec.src, spec.dst, ndim);
        return ex;
    }
    const TpGroupDecision* mine = nullptr;
    bool anyFallback = false, anyOther = false;
    for (const auto& g : tp.groups) {
        if (std::find(g.meshRanks.begin(), g.meshRanks.end(), rank) != g.meshRanks.end()) mine = &g;
        (g.path == "fallback" ? anyFallback : anyOther) = true;
    }
    const auto fallback = planRedistribution(spec.src, spec.dst, ndim);
    const bool spans = std::any_of(fallback.begin(), fallback.end(),
                                   [&](const RedistStep& s) { return s.meshDim != *tp.tpMeshDim; });
    if (!mine) return ex;  // not on this mesh
    if (mine->path == "fallback" || (anyFallback && anyOther && spans)) {
        ex.path = "fallback";
        ex.steps = fallback;
        ex.widened = mine->path != "fallback";
    } else if (mine->path == "identity") {
        ex.path = "identity";
    } else {
        ex.path = "lowered";
        ex.steps = loweredSteps(mine->op, *tp.tpMeshDim, spec.src, spec.dst, reference);
    }
    return ex;
}

namespace {

bool hasPartial(const std::vector<Placement>& pl) {
    return std::any_of(pl.begin(), pl.end(), [](const Placement& p) { return p.isPartial(); });
}

std::string pathText(const TpPlan& tp, const TpExecution& ex) {
    std::string path = ex.path;
    if (ex.widened) path += " (widened: the fallback spans mesh dims other than tp)";
    if (!tp.tpMeshDim) path += " (no tp mesh dim)";
    return path;
}

}  // namespace

void runTpTransition(RankContext& ctx, const ExecEnv& env, int t) {
    const TpTransition& spec = env.scenario->tpTransitions.at(size_t(t));
    const TpPlan& tp = env.plan->tpTransitions.at(size_t(t));
    const Mesh& mesh = env.scenario->mesh(spec.mesh);
    const auto coord = mesh.coordinateOf(ctx.rank());
    if (!coord) return;
    const auto& shape = env.tpShapes.at(size_t(t));
    const TpExecution ex = tpExecutionFor(tp, spec, ctx.rank(), env.mode == RunMode::Reference);
    env.sink->tpPath(t, pathText(tp, ex));
    RedistContext rc;
    rc.ctx = &ctx;
    rc.mesh = &mesh;
    rc.coord = *coord;
    rc.shape = shape;
    rc.dtype = spec.dtype;
    rc.label.phase = "tp";
    rc.label.tpTransition = t;
    rc.label.mesh = mesh.name;
    Tensor input = localTensor(Truth::tp(t), shape, spec.src, mesh.shape, *coord, spec.dtype);
    Tensor out;
    try {
        out = executeSteps(rc, ex.steps, std::move(input));
    } catch (const ReferenceRaise& e) {
        env.sink->tpError(t, ctx.rank(), e.what());
        return;
    }
    if (hasPartial(spec.dst)) {
        env.sink->tpOutput(t, ctx.rank(), *coord, out);
        env.sink->tpResult(t, ctx.rank(), std::nullopt);  // judged after the run, across ranks
        return;
    }
    const ShardLayout layout = shardLayout(shape, spec.dst, mesh.shape, *coord);
    env.sink->tpResult(
        t, ctx.rank(),
        compareLocal(ctx.rank(), out, globalTensor(Truth::tp(t), shape), layout, "tp"));
}

}  // namespace hsdp
