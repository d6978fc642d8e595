// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

#include "plan_diff/plan_diff.h"

namespace hsdp {

// A plan diff for people, most important first: diagnostics that appeared or
// disappeared, owners that moved, imbalance before/after, then scenario
// changes, parameters, per-coordinate loads, schedule, TP and ranks. Each
// list shows at most `maxItems` entries, then "... N more".
std::string planDiffToText(const PlanDiff& diff, const std::string& beforeLabel,
                           const std::string& afterLabel, size_t maxItems = 16);

}  // namespace hsdp
