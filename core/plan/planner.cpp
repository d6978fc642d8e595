// SPDX-License-Identifier: Apache-2.0
#include "plan/planner.h"

#include "plan/batching.h"
#include "plan/detail/rank_ownership.h"
#include "plan/detail/rank_work.h"
#include "plan/detail/scenario_checks.h"
#include "plan/detail/split_factors.h"
#include "plan/diagnostics.h"
#include "plan/grouping.h"
#include "plan/hazards.h"
#include "plan/ownership.h"
#include "plan/replica_count.h"
#include "plan/stack_gather.h"
#include "plan/tp_lowering.h"

namespace hsdp {

namespace {

std::vector<int64_t> shardSizes(const Group& group) {
    std::vector<int64_t> sizes;
    for (int dim : group.shardMeshDims) sizes.push_back(group.meshShape[static_cast<size_t>(dim)]);
    return sizes;
}

void assignOwnership(std::vector<Group>& groups, const std::vector<ParamSpec>& specs,
                     std::optional<int64_t> replicaCount) {
    for (Group& group : groups) {
        auto sizes = replicateSizes(group, replicaCount);
        auto shard = shardSizes(group);
        bool gathered = isGathered(group);
        for (Batch& batch : group.batches) {
            batch.replicateSizes = sizes;
            batch.isShard = gathered;
            assignBatchOwnership(batch, specs, shard);
        }
    }
}

// What the option says for each gathered group; "auto" is left for the cost
// model to settle (chooseGatherStrategies), all-gather until it does.
void assignGatherStrategies(std::vector<Group>& groups, GatherStrategyOption option) {
    for (Group& group : groups) {
        if (!isGathered(group)) continue;
        group.gatherStrategyAuto = option == GatherStrategyOption::Auto;
        group.gatherStrategySettled = !group.gatherStrategyAuto;
        group.gatherStrategy = option == GatherStrategyOption::AllToAll ? GatherStrategy::AllToAll
                                                                        : GatherStrategy::AllGather;
        group.gatherStrategyWhy = group.gatherStrategyAuto
                                      ? "auto, not yet weighed by the cost model: all-gather"
                                      : "options.gather_strategy";
    }
}

}  // namespace

Plan makePlan(const Scenario& scenario) {
    Plan plan;
    plan.scenarioName = scenario.name;
    plan.worldSize = scenario.worldSize;
    plan.alignmentBytes = scenario.options.alignmentBytes;
    DiagnosticSink sink;

    auto grouping = groupParameters(scenario, sink);
    plan.noCommParams = std::move(grouping.noCommParams);
    plan.rejectedParams = std::move(grouping.rejectedParams);
    plan.adamwParams = std::move(grouping.adamwParams);
    plan.groups = std::move(grouping.groups);

    plan.effectiveReplicaCount = effectiveReplicaCount(plan.groups, scenario.options, sink);
    plan.schedule = buildBatches(plan.groups, scenario.params, scenario.options.maxBatchNumel);
    assignOwnership(plan.groups, scenario.params, plan.effectiveReplicaCount);
    assignGatherStrategies(plan.groups, scenario.options.gatherStrategy);
    plan.ranks =
        rankOwnership(plan.groups, scenario.params, scenario.worldSize, plan.effectiveReplicaCount);
    addRankWork(plan.ranks, plan.groups, plan.noCommParams, scenario.params,
                plan.effectiveReplicaCount);
    addAdamWWork(plan.ranks, plan.adamwParams, scenario);

    reportParamHazards(plan.groups, scenario.params, sink);
    reportStackGathers(scenario, plan.groups, sink);
    plan.tpTransitions = planTpTransitions(scenario, sink);
    reportOwnerImbalance(plan.groups, sink);
    reportSplitFactors(scenario, sink);
    reportScenarioShape(scenario, sink);
    plan.diagnostics = sink.take();
    return plan;
}

}  // namespace hsdp
