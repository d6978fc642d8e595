// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "cost/cost_diff.h"

namespace hsdp {

// The `cost` object of `diff --json --cluster`: the cluster, each plan's
// step_seconds, peak_bytes, peak_rank and resident_bytes, the changes (after
// minus before) overall and per phase, and which plan is faster and lighter
// ("before" | "after" | "same").
nlohmann::ordered_json costDiffToJson(const CostDiff& diff);

}  // namespace hsdp
