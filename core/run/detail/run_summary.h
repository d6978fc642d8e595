// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "run/exec_env.h"
#include "verify/run_result.h"
#include "verify/run_sink.h"

namespace hsdp {

// Folds what the rank threads reported into per-parameter and per-transition
// verdicts with human detail, and sets `verified`. A parameter or transition
// some holder never reported because the run stopped is "not-reached"; the
// plan's error diagnostics are copied into the result and block `verified`.
void summarize(const ExecEnv& env, const RunSink& sink, RunResult& result);

}  // namespace hsdp
