// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/plan.h"
#include "run/exec_env.h"
#include "run/runner.h"
#include "runtime/world.h"
#include "types/scenario.h"
#include "verify/run_result.h"
#include "verify/run_sink.h"

namespace hsdp {

// The parts runPlan is made of, shared with the processes of a run split
// over processes (core/distributed), so that both run and judge the ranks
// with the same code.

// Fills `env` (shapes after the shrink, observer, progress; the single-device
// results when `expected`: what the ranks compare with, which a merge that
// only summarizes does not need) and the result's mode, world size and
// shrink. Throws std::invalid_argument for a plan not of the scenario.
void prepareRun(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                bool expected, ExecEnv& env, RunResult& result);

// The world of a run: timeout, fault, cancel, no world group.
WorldOptions runWorldOptions(const Scenario& scenario, const RunOptions& options);

// What every rank thread runs: the schedule, the local params, the TP transitions.
void rankBody(RankContext& ctx, const ExecEnv& env);

// Totals from `trace` (every rank's events), then the verdicts (summarize).
void concludeRun(const ExecEnv& env, const RunSink& sink, Trace trace, RunResult& result);

}  // namespace hsdp
