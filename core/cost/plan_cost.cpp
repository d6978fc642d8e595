// SPDX-License-Identifier: Apache-2.0
#include "cost/plan_cost.h"

#include <map>

#include "cost/shared_cores.h"
#include "types/stopped.h"

namespace hsdp {

Cluster clusterForWorld(const Cluster& cluster, int worldSize) {
    if (cluster.worldSize() >= worldSize) return cluster;
    const int perNode = std::max(1, cluster.devicesPerNode);
    return withNodes(cluster, (worldSize + perNode - 1) / perNode);
}

namespace {

std::vector<PhaseCost> phaseCosts(const StepSchedule& schedule, const StepSimulation& sim,
                                  const ComputeRates& rates) {
    std::map<StepPhase, PhaseCost> byPhase;
    for (size_t c = 0; c < schedule.collectives.size(); ++c) {
        PhaseCost& phase = byPhase[schedule.collectives[c].phase];
        ++phase.collectives;
        phase.collectiveSeconds += sim.collectiveSeconds[c];
    }
    for (const auto& work : schedule.ranks)
        for (const auto& w : work)
            if (w.kind != WorkKind::Collective)
                byPhase[w.phase].computeSeconds += workSeconds(w, rates);
    for (const auto& step : sim.criticalPath) {
        const auto& span = sim.ranks[size_t(step.rank)].spans[size_t(step.work)];
        const RankWork& w = schedule.ranks[size_t(step.rank)][size_t(step.work)];
        PhaseCost& phase = byPhase[w.phase];
        const double seconds = span.end - span.start;
        phase.criticalSeconds += seconds;
        if (w.kind != WorkKind::Collective) phase.criticalComputeSeconds += seconds;
        if (w.kind == WorkKind::NewtonSchulz) phase.criticalNewtonSchulzSeconds += seconds;
    }
    std::vector<PhaseCost> out;
    for (auto& [phase, cost] : byPhase) {
        cost.phase = phase;
        out.push_back(cost);
    }
    return out;
}

std::vector<CriticalSegment> criticalSegments(const StepSchedule& schedule,
                                              const StepSimulation& sim) {
    std::vector<CriticalSegment> out;
    for (const auto& step : sim.criticalPath) {
        const RankWork& w = schedule.ranks[size_t(step.rank)][size_t(step.work)];
        const WorkSpan& span = sim.ranks[size_t(step.rank)].spans[size_t(step.work)];
        if (out.empty() || out.back().rank != step.rank || out.back().phase != w.phase ||
            out.back().index != w.scheduleIndex)
            out.push_back({step.rank, w.phase, w.scheduleIndex, span.start, 0, 0});
        out.back().seconds += span.end - span.start;
        if (w.kind == WorkKind::Collective) {
            ++out.back().collectives;
            out.back().collectiveSeconds += span.end - span.start;
        }
    }
    return out;
}

std::vector<MeshDimLinks> meshDimLinks(const Scenario& scenario, const Cluster& cluster) {
    std::vector<MeshDimLinks> out;
    for (const auto& mesh : scenario.meshes)
        for (int d = 0; d < mesh.ndim(); ++d) {
            if (mesh.shape[size_t(d)] <= 1) continue;
            MeshDimLinks links{mesh.name, d, mesh.dimNames.at(size_t(d)), 0, 0};
            for (const auto& group : mesh.groupsAlong(d)) {
                ++links.groups;
                links.crossingNodes += cluster.linkLevelOf(group) == LinkLevel::InterNode;
            }
            out.push_back(std::move(links));
        }
    return out;
}

}  // namespace

namespace {

PlanCost costWithin(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                    const std::vector<std::vector<int64_t>>& paramShapes,
                    const std::vector<std::vector<int64_t>>& tpShapes,
                    const ScheduleBudget& budget) {
    requireSettledPlan(plan, "costPlan");
    PlanCost cost;
    cost.cluster = clusterForWorld(cluster, scenario.worldSize);
    cost.schedule = stepSchedule(scenario, plan, paramShapes, tpShapes, budget);
    const ComputeRates rates = computeRatesOf(cost.cluster, cost.schedule);
    throwIfStopped(budget.stop);
    cost.simulation = simulateOn(cost.schedule, cost.cluster);  // shared cores or not
    throwIfStopped(budget.stop);
    cost.stepSeconds = cost.simulation.makespan;
    cost.lastRank = cost.simulation.lastRank;
    cost.phases = phaseCosts(cost.schedule, cost.simulation, rates);
    cost.criticalPath = criticalSegments(cost.schedule, cost.simulation);
    cost.memory = predictStepMemory(scenario, plan, paramShapes, budget.stop);
    for (size_t r = 0; r < cost.simulation.ranks.size(); ++r) {
        const auto& t = cost.simulation.ranks[r];
        const StepMemory& m = cost.memory[r];
        cost.ranks.push_back({int(r), t.finish, t.busy, t.waiting, m.peakBytes, m.residentBytes});
        if (m.peakBytes > cost.memory[size_t(cost.peakRank)].peakBytes) cost.peakRank = int(r);
    }
    cost.memoryFit = memoryFitOf(plan, cost.memory, cost.cluster);
    throwIfStopped(budget.stop);
    cost.meshDims = meshDimLinks(scenario, cost.cluster);
    cost.gatherTraffic = gatherTraffic(scenario, plan, cost.schedule, paramShapes);
    return cost;
}

PlanCost costAtRealShapes(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                          const ScheduleBudget& budget) {
    std::vector<std::vector<int64_t>> shapes, tpShapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    for (const auto& tp : scenario.tpTransitions) tpShapes.push_back(tp.shape);
    PlanCost cost = costWithin(scenario, plan, cluster, shapes, tpShapes, budget);
    // Remedies only at real shapes: a batch cap is in real elements.
    if (!cost.memoryFit.fits())
        cost.memoryFit = memoryFit(scenario, plan, cost.memory, cost.cluster, budget.stop);
    return cost;
}

}  // namespace

PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                  const std::vector<std::vector<int64_t>>& paramShapes,
                  const std::vector<std::vector<int64_t>>& tpShapes) {
    return costWithin(scenario, plan, cluster, paramShapes, tpShapes, {});
}

PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster) {
    return costAtRealShapes(scenario, plan, cluster, {});
}

PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                  const ScheduleBudget& budget) {
    return costAtRealShapes(scenario, plan, cluster, budget);
}

}  // namespace hsdp
