// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "plan/plan.h"
#include "types/gather_strategy.h"
#include "types/scenario.h"

namespace hsdp {

// One strategy's figures for one gathered group, at the real shapes.
struct StrategyFigures {
    // What a rank of the group's mesh receives for the group's gathers and
    // update returns (cost/gather_traffic.h): the most any rank does, the mean.
    int64_t maxReceived = 0;
    double meanReceived = 0;
    // The busiest rank's predicted gather + update-return time
    // (cost/gather_strategy_choice.h; Newton–Schulz, the same under both, left out).
    double seconds = 0;
    // The step's peak memory over all ranks with the group on this strategy.
    int64_t peakBytes = 0;
    int peakRank = 0;
    // The same with every gathered group of the plan on this strategy: one
    // group's choice can leave the step over the device while all of them
    // together fit.
    int64_t everyGroupPeakBytes = 0;
    int everyGroupPeakRank = 0;
};

// The two strategies side by side for one gathered group of a plan.
struct StrategyComparison {
    int group = -1;  // position in Plan::groups
    int groupId = -1;
    GatherStrategy used = GatherStrategy::AllGather;  // what the plan runs
    bool chosenByAuto = false;
    std::string why;      // the plan's gatherStrategyWhy ("" when the option named it)
    std::string cluster;  // whose times
    StrategyFigures allGather, allToAll;
};

// Costs both strategies of group `group` on `cluster`; heavy on a large plan
// (two step schedules and two memory replays): the studio runs it off the
// GUI thread. Throws what the cost models throw (ScheduleTooLarge past the
// studio's budget), Stopped soon after `stop` is requested.
StrategyComparison compareStrategies(const Scenario& scenario, const Plan& plan, int group,
                                     const Cluster& cluster, std::stop_token stop = {});

// The gathered groups whose strategies `plan --cluster` and the report
// compare: each costs two step schedules and two memory replays.
inline constexpr size_t kComparedGroups = 8;

// Both strategies of every gathered group of `plan` on `cluster`
// (compareStrategies), the first `maxGroups` of them; empty when the plan
// gathers nothing, or when a group's schedule outgrows the studio's budget.
std::vector<StrategyComparison> compareEveryGroup(const Scenario& scenario, const Plan& plan,
                                                  const Cluster& cluster, size_t maxGroups);
// How many of the plan's groups gather anything.
size_t gatheredGroupCount(const Plan& plan);

// Whether the group gathers anything (has a sharded batch): else the
// strategies do not differ.
bool gathers(const Group& group);

}  // namespace hsdp
