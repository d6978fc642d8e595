// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

// The process groups a run of `plan` in `mode` runs collectives on, and no
// others: for each mesh dim some schedule entry (scheduleEntryMeshDims) or TP
// transition (tpTransitionMeshDims) communicates over, every group along it.
// The run asks for exactly the groups these functions name, so a run connects
// these and would fail on any group left out. Never the world: no phase uses it.
std::vector<std::vector<int>> usedGroups(const Scenario& scenario, const Plan& plan, RunMode mode);

}  // namespace hsdp
