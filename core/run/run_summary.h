#pragma once

#include "run/exec_env.h"
#include "verify/run_result.h"
#include "verify/run_sink.h"

namespace hsdp {

// Folds what the rank threads reported into per-parameter and per-transition
// verdicts with human detail, and sets `verified`. A parameter or transition
// some holder never reported (the run stopped) is "error".
void summarize(const ExecEnv& env, const RunSink& sink, RunResult& result);

}  // namespace hsdp
