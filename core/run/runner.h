// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "plan/plan.h"
#include "run/run_observer.h"
#include "runtime/world.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

struct RunOptions {
    RunMode mode = RunMode::Corrected;
    std::chrono::milliseconds timeout{60000};  // every collective
    std::optional<FaultSpec> fault;
    TraceRecorder* trace = nullptr;       // optional; the events also land in RunResult::trace
    RunObserver* observer = nullptr;      // optional: gathered and final tensors (e.g. NpyDump)
    int64_t maxBytes = int64_t(2) << 30;  // docs/run.md §6 memory budget
    double flopBudget = 4e10;             // Newton–Schulz work budget (2 cores, seconds)
    // Called from a rank thread (not the caller's): fraction 0..1 and what runs.
    std::function<void(double, const std::string&)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Executes `plan` (made from `scenario` on its real shapes) for real over
// Gloo: one thread per rank, the optimizer step of docs/run.md §2 then the TP
// transitions (§4), every byte verified. Never throws for a failed
// collective, a timeout or a cancel: those land in RunResult::error and mark
// the affected results "error". Throws std::invalid_argument only for a plan
// that does not belong to the scenario.
RunResult runPlan(const Scenario& scenario, const Plan& plan, const RunOptions& options);

// What connecting the run's process groups (usedGroups) will take in open
// files, for a front end to show before the run starts.
SocketEstimate runSocketEstimate(const Scenario& scenario, const Plan& plan,
                                 const RunOptions& options);

}  // namespace hsdp
