// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "cost/plan_cost.h"
#include "cost/strategy_comparison.h"

namespace hsdp {

// The `cost` object of `plan --json --cluster` (docs/cost-model.md "JSON"):
// the cluster as costed, step_seconds, the critical path, per-phase totals,
// every rank's finish, busy and waiting seconds, and the mesh dims whose
// groups cross nodes. Times are predicted seconds.
nlohmann::ordered_json costToJson(const PlanCost& cost);

// What each rank sends and receives in the gather and update-return phases:
// what the plan runs (`chosen`) and both strategies, per rank and phase
// (cost/gather_traffic.h); `plan --json` has it with or without --cluster.
nlohmann::ordered_json gatherTrafficToJson(const GatherTraffic& traffic);

// `plan --cluster --json`'s cost.gather_strategies: per gathered group both
// strategies' figures (cost/strategy_comparison.h).
nlohmann::ordered_json strategyComparisonsToJson(
    const std::vector<StrategyComparison>& comparisons);

}  // namespace hsdp
