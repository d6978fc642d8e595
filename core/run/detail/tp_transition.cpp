// SPDX-License-Identifier: Apache-2.0
#include "run/detail/tp_transition.h"

#include <algorithm>
#include <set>

#include "types/geometry.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp {

TpExecution tpExecutionFor(const TpPlan& tp, int rank, RunMode mode) {
    TpExecution ex;
    if (!tp.tpMeshDim || tp.groups.empty()) {  // no TP path: DTensor redistribution
        ex.steps = &tp.fallbackSteps;
        return ex;
    }
    const TpGroupDecision* mine = tp.groupOf(rank);
    if (!mine) return ex;  // not on this mesh
    ex.path = mine->runs;
    ex.steps = &mine->steps;
    ex.widened = tp.widened(*mine);
    if (mine->runs == TpPath::Lowered && mode == RunMode::Reference) ex.form = OpForm::Seed;
    return ex;
}

std::vector<int> tpTransitionMeshDims(const TpPlan& tp, const Mesh& mesh, RunMode mode) {
    // One member per TP group stands for it (its members run the same steps);
    // without a TP path every rank of the mesh runs the fallback.
    std::vector<int> members;
    for (const auto& group : tp.groups)
        if (!group.meshRanks.empty()) members.push_back(group.meshRanks.front());
    if ((!tp.tpMeshDim || tp.groups.empty()) && !mesh.ranks.empty()) members = {mesh.ranks.front()};
    std::set<int> dims;
    for (int rank : members) {
        const TpExecution ex = tpExecutionFor(tp, rank, mode);
        if (!ex.steps) continue;
        for (const auto& step : *ex.steps)
            if (stepCommunicates(step.op) && mesh.shape[size_t(step.meshDim)] > 1)
                dims.insert(step.meshDim);
    }
    return {dims.begin(), dims.end()};
}

namespace {

bool hasPartial(const std::vector<Placement>& pl) {
    return std::any_of(pl.begin(), pl.end(), [](const Placement& p) { return p.isPartial(); });
}

std::string pathText(const TpPlan& tp, const TpExecution& ex) {
    std::string path(tpPathName(ex.path));
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
    const TpExecution ex = tpExecutionFor(tp, ctx.rank(), env.mode);
    if (!ex.steps) return;
    env.sink->tpPath(t, pathText(tp, ex));
    RankRedistribution redist;
    redist.ctx = &ctx;
    redist.mesh = &mesh;
    redist.coord = *coord;
    redist.shape = shape;
    redist.dtype = spec.dtype;
    redist.label.phase = "tp";
    redist.label.tpTransition = t;
    redist.label.mesh = mesh.name;
    Tensor input = localTensor(Truth::tp(t), shape, spec.src, mesh.shape, *coord, spec.dtype);
    Tensor out;
    try {
        out = executeSteps(redist, *ex.steps, std::move(input), ex.form);
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
