// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "accuracy/run_prediction.h"
#include "accuracy/step_replay.h"
#include "cli_args.h"
#include "run/runner.h"

namespace hsdp::cli {

// The options that say how a run runs, shared by `run` and `worker` (every
// worker of a split run runs with the same ones): --mode, --timeout,
// --max-bytes, --max-flops, --inject-fault.
void declareRunSettings(ArgParser& parser);
RunOptions parseRunSettings(const ArgParser& parser);  // throws UsageError
// The same options spelled again for a worker's command line.
std::vector<std::string> runSettingsArgs(const ArgParser& parser);

// Prints a finished run as `run` does (text or --json, then --trace FILE)
// and returns the exit status: 0 verified, 1 not. With a prediction (run
// --cluster), its figures follow the run's (docs/run.md).
int reportRun(const ArgParser& parser, const RunOptions& options, const RunResult& result,
              const Scenario& scenario, const Plan& plan, const RunPrediction* prediction = nullptr,
              const StepReplay* replay = nullptr);

}  // namespace hsdp::cli
