// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cost/strategy_comparison.h"

namespace hsdp {

// Both gather strategies of every gathered group of `plan` on `cluster`
// (compareStrategies), the first `maxGroups` of them; empty when the plan
// gathers nothing, or when a group's schedule outgrows the studio's budget
// (`tooLarge` then says so).
std::vector<StrategyComparison> compareEveryGroup(const Scenario& scenario, const Plan& plan,
                                                  const Cluster& cluster, size_t maxGroups,
                                                  bool* tooLarge = nullptr);

// `plan --cluster`'s "gather strategies" block: per group what the Gather
// strategy view shows, in the same words; "" for no comparison.
std::string strategyComparisonsText(const std::vector<StrategyComparison>& comparisons,
                                    size_t gatheredGroups);

// The same as `plan --cluster --json`'s cost.gather_strategies array.
nlohmann::ordered_json strategyComparisonsToJson(
    const std::vector<StrategyComparison>& comparisons);

}  // namespace hsdp
