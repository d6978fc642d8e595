// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "plan/plan.h"
#include "run/runner.h"
#include "runtime/file_limits.h"
#include "runtime/world.h"
#include "types/scenario.h"

namespace hsdp {

// A run whose busiest process would open more files than the limit allows,
// found before any rank connects, and what would fit instead.
struct SocketShortfall {
    SocketEstimate asked;     // the run as asked (split: its busiest process)
    int procs = 1;            // the processes asked for (1: in this process)
    FileLimits started;       // the limits before the run raised the soft one
    FileLimits now;           // the limits in force
    int fittingProcs = 0;     // the fewest processes that fit (--procs auto); 0: none
    long fittingSockets = 0;  // the busiest of those needs about this many
};

// nullopt when `asked` fits. `started`: the limits as the process found them.
std::optional<SocketShortfall> socketShortfall(const Scenario& scenario, const Plan& plan,
                                               const RunOptions& options,
                                               const SocketEstimate& asked, int procs,
                                               const FileLimits& started);

// The refusal: the figures, the soft and hard limits, and only fixes that can
// work: --procs N with the N that fits, ulimit -n only under the hard limit.
std::string socketShortfallText(const SocketShortfall& shortfall);

}  // namespace hsdp
