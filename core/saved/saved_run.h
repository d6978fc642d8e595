// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "plan/plan.h"
#include "saved/detail/run_reader.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

// Why a run result cannot be shown over `plan` of `scenario` (another world
// size, parameters or transitions that are not this scenario's); "" when it
// belongs. Names the first culprit.
std::string runMismatch(const Scenario& scenario, const Plan& plan, const RunResult& run);

// Why `trace` is not the trace of `run` over `scenario`: ranks outside the
// world, process groups no mesh of the scenario has, parameters or groups the
// plan does not have, parameter names that differ, or other event and byte
// totals than the run recorded; "" when it belongs.
std::string traceMismatch(const Scenario& scenario, const Plan& plan, const RunResult& run,
                          const SavedTrace& trace);

// A saved run opened for `scenario`'s `plan`: the `run --json` result at
// `runPath` and, when `tracePath` is not empty, its `--trace` file. Throws
// std::runtime_error naming the file and the reason when a file cannot be
// read, is not what hsdp-inspect writes, or does not belong to the scenario.
RunResult openSavedRun(const Scenario& scenario, const Plan& plan, const std::string& runPath,
                       const std::string& tracePath);

}  // namespace hsdp
