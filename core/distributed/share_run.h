// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "distributed/share_outcome.h"
#include "distributed/store_folder.h"
#include "plan/plan.h"
#include "run/runner.h"
#include "types/scenario.h"

namespace hsdp {

// Which share of a split run this process runs, and where it meets the others.
struct ShareSpec {
    StoreFolder folder{""};
    int procs = 1;
    int proc = 0;
    std::string hostname = "127.0.0.1";  // the address its sockets listen on
    std::string iface;                   // or this network interface's (when given)
};

// Runs the ranks splitRanks gives process `spec.proc` (one thread each), the
// same rank code as runPlan, their process groups meeting the other
// processes' through Gloo's FileStore in the store folder. Every process
// starts its clock when all have connected and closes its sockets only when
// all are over (or one failed). Never throws for a failed run: the failure is
// in the outcome.
ShareOutcome runShare(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                      const ShareSpec& spec);

}  // namespace hsdp
