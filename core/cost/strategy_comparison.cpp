// SPDX-License-Identifier: Apache-2.0
#include "cost/strategy_comparison.h"

#include <algorithm>

#include "cost/gather_strategy_choice.h"
#include "cost/gather_traffic.h"
#include "cost/step_memory_model.h"
#include "cost/step_schedule.h"
#include "types/stopped.h"

namespace hsdp {

namespace {

// The plan with group `group` on `strategy`, everything else as it is.
Plan withStrategy(Plan plan, int group, GatherStrategy strategy) {
    plan.groups.at(size_t(group)).gatherStrategy = strategy;
    return plan;
}

// Only the group's own schedule entries, on the all-gather (whose traffic is
// the schedule's): gatherTraffic then counts this group alone, both ways.
Plan groupAlone(const Plan& plan, int group) {
    Plan alone = withStrategy(plan, group, GatherStrategy::AllGather);
    alone.schedule.clear();
    for (const ScheduleEntry& entry : plan.schedule)
        if (entry.group == group) alone.schedule.push_back(entry);
    return alone;
}

void setReceived(StrategyFigures& figures, const StrategyTraffic& traffic, const Mesh& mesh) {
    int64_t total = 0;
    for (int rank : mesh.ranks) {
        const int64_t received = traffic.ranks.at(size_t(rank)).received();
        figures.maxReceived = std::max(figures.maxReceived, received);
        total += received;
    }
    figures.meanReceived = mesh.ranks.empty() ? 0 : double(total) / double(mesh.ranks.size());
}

// The highest rank's peak of the step of `plan`, into `bytes` and `rank`.
void setPeak(int64_t& bytes, int& rank, const Scenario& scenario, const Plan& plan,
             const std::stop_token& stop) {
    for (const StepMemory& r : predictStepMemory(scenario, plan, stop))
        if (r.peakBytes > bytes) {
            bytes = r.peakBytes;
            rank = r.rank;
        }
}

// The plan with every gathered group on `strategy`.
Plan everyGroupOn(Plan plan, GatherStrategy strategy) {
    for (Group& g : plan.groups)
        if (gathers(g)) g.gatherStrategy = strategy;
    return plan;
}

}  // namespace

bool gathers(const Group& group) {
    return std::any_of(group.batches.begin(), group.batches.end(),
                       [](const Batch& b) { return b.isShard; });
}

namespace {

// One group's figures under both strategies, its times out of `estimates`
// (every group's, estimateGatherStrategies); not the every-group peaks,
// which are the plan's, not the group's (setEveryGroupPeaks).
StrategyComparison compareGroup(const Scenario& scenario, const Plan& plan, int group,
                                const Cluster& cluster,
                                const std::vector<GatherStrategyEstimate>& estimates,
                                const std::stop_token& stop) {
    const Group& g = plan.groups.at(size_t(group));
    StrategyComparison out;
    out.group = group;
    out.groupId = g.id;
    out.used = g.gatherStrategy;
    out.chosenByAuto = g.gatherStrategyAuto;
    out.why = g.gatherStrategyWhy;
    out.cluster = cluster.name;
    const Mesh& mesh = scenario.mesh(g.mesh);
    const GatherTraffic traffic = gatherTraffic(scenario, groupAlone(plan, group));
    setReceived(out.allGather, traffic.allGather, mesh);
    setReceived(out.allToAll, traffic.allToAll, mesh);
    for (const GatherStrategyEstimate& e : estimates)
        if (e.group == group) {
            out.allGather.seconds = e.allGatherSeconds;
            out.allToAll.seconds = e.allToAllSeconds;
        }
    throwIfStopped(stop);
    for (auto [figures, strategy] : {std::pair{&out.allGather, GatherStrategy::AllGather},
                                     std::pair{&out.allToAll, GatherStrategy::AllToAll}})
        setPeak(figures->peakBytes, figures->peakRank, scenario,
                withStrategy(plan, group, strategy), stop);
    return out;
}

// The step's peak with every gathered group on each strategy: two memory
// replays of the plan, the same for every group compared.
void setEveryGroupPeaks(std::vector<StrategyComparison>& comparisons, const Scenario& scenario,
                        const Plan& plan, const std::stop_token& stop) {
    if (comparisons.empty()) return;
    StrategyFigures allGather, allToAll;
    for (auto [figures, strategy] : {std::pair{&allGather, GatherStrategy::AllGather},
                                     std::pair{&allToAll, GatherStrategy::AllToAll}})
        setPeak(figures->everyGroupPeakBytes, figures->everyGroupPeakRank, scenario,
                everyGroupOn(plan, strategy), stop);
    for (StrategyComparison& c : comparisons) {
        c.allGather.everyGroupPeakBytes = allGather.everyGroupPeakBytes;
        c.allGather.everyGroupPeakRank = allGather.everyGroupPeakRank;
        c.allToAll.everyGroupPeakBytes = allToAll.everyGroupPeakBytes;
        c.allToAll.everyGroupPeakRank = allToAll.everyGroupPeakRank;
    }
}

}  // namespace

StrategyComparison compareStrategies(const Scenario& scenario, const Plan& plan, int group,
                                     const Cluster& cluster, std::stop_token stop) {
    const auto estimates = estimateGatherStrategies(scenario, plan, cluster,
                                                    ScheduleBudget{kStudioScheduleItems, stop});
    throwIfStopped(stop);
    std::vector<StrategyComparison> out{
        compareGroup(scenario, plan, group, cluster, estimates, stop)};
    setEveryGroupPeaks(out, scenario, plan, stop);
    return out.front();
}

std::vector<StrategyComparison> compareEveryGroup(const Scenario& scenario, const Plan& plan,
                                                  const Cluster& cluster, size_t maxGroups) {
    std::vector<StrategyComparison> out;
    try {
        // Every group's times come from one estimate, the every-group peaks
        // from one pair of replays: not again per group.
        const auto estimates = estimateGatherStrategies(scenario, plan, cluster,
                                                        ScheduleBudget{kStudioScheduleItems, {}});
        for (size_t g = 0; g < plan.groups.size() && out.size() < maxGroups; ++g)
            if (gathers(plan.groups[g]))
                out.push_back(compareGroup(scenario, plan, int(g), cluster, estimates, {}));
        setEveryGroupPeaks(out, scenario, plan, {});
    } catch (const ScheduleTooLarge&) {
        out.clear();
    }
    return out;
}

size_t gatheredGroupCount(const Plan& plan) {
    size_t n = 0;
    for (const Group& g : plan.groups) n += gathers(g);
    return n;
}

}  // namespace hsdp
