// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "cost/cost_diff.h"

namespace hsdp {

// The "Cost on <cluster>" section of `diff --cluster`: the step time before
// and after with each phase's share of the critical path, the worst rank's
// peak memory before and after, which plan is faster and which lighter, and
// which fit the device's memory.
std::string costDiffToText(const CostDiff& diff);

// "the after plan is faster" | "the before plan is faster" | "both plans take
// the same time" (and "lighter" / "peak the same" for memory): the verdicts
// the text and the JSON's readers share.
std::string fasterVerdict(Better faster);
std::string lighterVerdict(Better lighter);
// Which plans fit the device's memory, with what each is over it: "neither
// plan fits (before 79.8 GiB over, after 12.3 GiB over)", "only the after
// plan fits (the before plan is 79.8 GiB over)", "both plans fit".
std::string fitVerdict(const CostDiff& diff);

}  // namespace hsdp
