// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "gather_workload.h"

namespace hsdp::bench {

// hsdp-bench gather --strategy all-to-all: both gather strategies measured
// on `w` (strategy_measure.h), their figures and ratios, the goals (at 8
// ranks or more: >= 4x fewer bytes received per rank and >= 2.5x less time
// for the all-to-all), as JSON added to `out`.
void measureStrategies(const GatherWorkload& w, int rounds, nlohmann::ordered_json& out);
void printStrategies(const nlohmann::ordered_json& out);

}  // namespace hsdp::bench
