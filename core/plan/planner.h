// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The exact, deterministic planner of docs/plan.md §1-6: grouping, replica count,
// batches and schedule, ownership (per batch and per rank), shard-compute, TP
// lowering and diagnostics. Never throws on a scenario the reader accepted;
// problems become diagnostics and planning goes on.
Plan makePlan(const Scenario& scenario);

}  // namespace hsdp
