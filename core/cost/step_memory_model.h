// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"
#include "types/step_memory.h"

namespace hsdp {

// Each rank's memory through the corrected optimizer step, predicted from the
// plan and the data shapes alone (docs/cost-model.md "Memory"): the resident
// shards, then every buffer the runner allocates and frees for the step, in
// the runner's order, replayed on a MemoryTally. The runner counts the same
// buffers where it allocates them, so a run's measured memory equals this,
// byte for byte, on every rank.

// With the data shapes `paramShapes` (one per param: the real shapes, or a
// shrunk run's). Throws std::invalid_argument when they do not fit, Stopped
// (types/stopped.h) once `stop` is requested.
std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan,
                                          const std::vector<std::vector<int64_t>>& paramShapes,
                                          std::stop_token stop = {});

// The same with the scenario's own (real) shapes.
std::vector<StepMemory> predictStepMemory(const Scenario& scenario, const Plan& plan,
                                          std::stop_token stop = {});

// The same without each schedule entry's mark (StepMemory::entries left
// empty): the peaks, what made them up and the resident bytes, for a caller
// that weighs many plans (cost/memory_fit.h). At 8,192 ranks and 4,041
// entries the marks alone are half a GB.
std::vector<StepMemory> predictStepPeaks(const Scenario& scenario, const Plan& plan,
                                         std::stop_token stop = {});

}  // namespace hsdp
