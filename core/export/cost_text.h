// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "cost/plan_cost.h"
#include "cost/strategy_comparison.h"

namespace hsdp {

// The "Cost on <cluster>" section of `plan --cluster`: the predicted step
// time and the rank that finishes last, the phases' share of the critical
// path, the critical path's longest segments, which mesh dims' groups cross
// nodes, and the busiest and most waiting ranks. `sizes` says whose shapes
// were costed ("real size" or "the shrunk run's sizes").
std::string costToText(const PlanCost& cost, const std::string& sizes);

// `plan --cluster`'s "gather strategies" block: per group what the Gather
// strategy view shows, in the same words, of `gatheredGroups` gathered
// groups; "" for no comparison.
std::string strategyComparisonsText(const std::vector<StrategyComparison>& comparisons,
                                    size_t gatheredGroups);

}  // namespace hsdp
