// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "cluster/cluster.h"
#include "cost/step_schedule.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// What the cost model predicts one gathered group's batches take under each
// strategy: its gather and update-return work (collectives, packing,
// assembling, slicing and applying; not Newton–Schulz, which the same rank
// runs under both) summed per rank, the busiest rank's total, at real shapes.
struct GatherStrategyEstimate {
    int group = 0;
    double allGatherSeconds = 0;
    double allToAllSeconds = 0;
};

// Both strategies for every gathered group of `plan` on `cluster` (grown to
// the world). Each strategy's gather schedule stays within `budget`
// (ScheduleTooLarge past it).
std::vector<GatherStrategyEstimate> estimateGatherStrategies(const Scenario& scenario,
                                                             const Plan& plan,
                                                             const Cluster& cluster,
                                                             const ScheduleBudget& budget = {});

// Settles `options.gather_strategy: auto`: each group the option left to the
// cost model takes the strategy predicted faster on `cluster` (all-gather on
// a tie), and its gatherStrategyWhy gives both times and the cluster. Groups
// with an explicit strategy are left as they are. Deterministic, so every
// process of a split run that passes the same cluster decides the same.
void chooseGatherStrategies(const Scenario& scenario, Plan& plan, const Cluster& cluster,
                            const std::string& clusterName);

// The cluster "auto" weighs on when none is chosen: the loopback preset.
Cluster defaultStrategyCluster();

}  // namespace hsdp
