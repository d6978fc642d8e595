// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "distributed/share_outcome.h"
#include "plan/plan.h"
#include "run/runner.h"
#include "types/scenario.h"

namespace hsdp {

// One RunResult from the outcomes of a split run's processes, judged by the
// code runPlan uses (summarize), so text, JSON and trace read as those of a
// run in one process: the events of every process on one clock (each
// process's start, CLOCK_REALTIME, against the earliest), collective ids
// renumbered so a collective's participants share one id, ids in order of
// first start. The headline error is the failure noted first, by time;
// `lost` (a process that brought nothing home, e.g. killed) leads when
// given. `seconds` is left to the caller.
RunResult mergeShares(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                      const std::vector<ShareOutcome>& shares, const std::string& lost = {});

}  // namespace hsdp
