// SPDX-License-Identifier: Apache-2.0
#include "cost/gather_strategy_choice.h"

#include <algorithm>
#include <map>

#include "cluster/reader.h"
#include "cost/plan_cost.h"
#include "cost/step_schedule.h"
#include "cost/step_simulation.h"
#include "types/figures.h"

namespace hsdp {

namespace {

// Per plan group, the busiest rank's seconds in the gather and update-return
// phases of its entries under the strategies `plan` has.
std::map<int, double> gatherSecondsByGroup(const Scenario& scenario, const Plan& plan,
                                           const Cluster& cluster, const ScheduleBudget& budget) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    const StepSchedule schedule = gatherSchedule(scenario, plan, shapes, true, budget);
    const std::vector<double> collectiveSeconds = collectiveSecondsOn(schedule, cluster);
    const ComputeRates rates = computeRatesOf(cluster, schedule);
    std::map<int, double> most;
    for (const auto& work : schedule.ranks) {
        std::map<int, double> mine;
        for (const RankWork& w : work) {
            if (w.phase != StepPhase::Gather && w.phase != StepPhase::UpdateBroadcast) continue;
            // The same Newton–Schulz runs on the same rank under both strategies.
            if (w.kind == WorkKind::NewtonSchulz) continue;
            const int group = plan.schedule.at(size_t(w.scheduleIndex)).group;
            mine[group] += w.kind == WorkKind::Collective ? collectiveSeconds[size_t(w.collective)]
                                                          : workSeconds(w, rates);
        }
        for (const auto& [group, seconds] : mine) most[group] = std::max(most[group], seconds);
    }
    return most;
}

Plan withEveryGatheredGroup(Plan plan, GatherStrategy strategy) {
    for (Group& group : plan.groups) group.gatherStrategy = strategy;
    return plan;
}

}  // namespace

std::vector<GatherStrategyEstimate> estimateGatherStrategies(const Scenario& scenario,
                                                             const Plan& plan,
                                                             const Cluster& cluster,
                                                             const ScheduleBudget& budget) {
    const Cluster grown = clusterForWorld(cluster, scenario.worldSize);
    const auto allGather = gatherSecondsByGroup(
        scenario, withEveryGatheredGroup(plan, GatherStrategy::AllGather), grown, budget);
    const auto allToAll = gatherSecondsByGroup(
        scenario, withEveryGatheredGroup(plan, GatherStrategy::AllToAll), grown, budget);
    std::vector<GatherStrategyEstimate> out;
    for (const auto& [group, seconds] : allGather) {
        const auto other = allToAll.find(group);
        out.push_back({group, seconds, other == allToAll.end() ? 0 : other->second});
    }
    return out;
}

void chooseGatherStrategies(const Scenario& scenario, Plan& plan, const Cluster& cluster,
                            const std::string& clusterName) {
    if (std::none_of(plan.groups.begin(), plan.groups.end(),
                     [](const Group& g) { return !g.gatherStrategySettled; }))
        return;
    for (const auto& estimate : estimateGatherStrategies(scenario, plan, cluster)) {
        Group& group = plan.groups.at(size_t(estimate.group));
        if (!group.gatherStrategyAuto) continue;
        const bool toAll = estimate.allToAllSeconds < estimate.allGatherSeconds;
        group.gatherStrategy = toAll ? GatherStrategy::AllToAll : GatherStrategy::AllGather;
        group.gatherStrategyWhy = "auto on " + clusterName + ": all-to-all " +
                                  durationText(estimate.allToAllSeconds) + " vs all-gather " +
                                  durationText(estimate.allGatherSeconds) +
                                  " predicted for its gather and update return (the busiest rank; "
                                  "Newton–Schulz, the same under both, left out)";
        group.gatherStrategySettled = true;
    }
    for (Group& group : plan.groups)
        if (!group.gatherStrategySettled) {  // in no schedule entry: nothing to weigh
            group.gatherStrategyWhy = "auto on " + clusterName + ": nothing to gather, all-gather";
            group.gatherStrategySettled = true;
        }
}

Cluster defaultStrategyCluster() {
    return readClusterPreset("loopback");
}

}  // namespace hsdp
