// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "cli_args.h"
#include "distributed/store_folder.h"
#include "plan/plan.h"
#include "run/runner.h"
#include "runtime/world.h"
#include "types/scenario.h"

namespace hsdp::cli {

// `run --procs N`: the world split over N worker processes of this host
// (`hsdp-inspect worker`), which rendezvous through Gloo's FileStore in a
// private temporary folder and connect over loopback TCP. The parent only
// starts them, waits, and merges what they wrote into one RunResult.
struct SplitRequest {
    int procs = 1;
    std::string scenarioText;             // what every worker reads (standard input too)
    std::vector<std::string> workerArgs;  // the run settings, --dump-into
};

// N, or "auto": the fewest processes whose sockets fit the open-file limit
// (1: the run fits in this process). Throws UsageError.
int parseProcs(const std::string& text, const Scenario& scenario, const Plan& plan,
               const RunOptions& options);

// What the busiest worker of the split will open, before any connects.
SocketEstimate splitEstimate(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                             int procs);

// Runs the split and merges it; the store folder is gone afterwards, and no
// worker outlives the call.
RunResult runOverWorkers(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                         const SplitRequest& request);

// Waits for the shares of every process in `folder`, merges them, prints the
// result as `run` does (parser: --json, --trace) and empties the folder.
// Returns the exit status.
int mergeFolder(const ArgParser& parser, const StoreFolder& folder, const Scenario& scenario,
                const Plan& plan, const RunOptions& options, int procs);

}  // namespace hsdp::cli
