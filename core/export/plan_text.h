// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// How much a text plan lists before it summarises (huge worlds stay readable).
struct PlanTextOptions {
    size_t maxRanks = 64;  // every rank up to this world size, else a summary
    size_t maxItems = 16;  // owners / loads / params listed per batch before "... N more"
};

// The plan for people: diagnostics first, then meshes, groups with layouts,
// batches with owners, loads and imbalance, the schedule, TP decisions and
// per-rank ownership.
std::string planToText(const Plan& plan, const Scenario& scenario);
std::string planToText(const Plan& plan, const Scenario& scenario, const PlanTextOptions& options);

}  // namespace hsdp
