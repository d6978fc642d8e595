// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "plan/plan.h"
#include "redistribute/redistribute.h"
#include "run/exec_env.h"
#include "run/tp_execution.h"
#include "runtime/world.h"

namespace hsdp {

// docs/run.md §4 for transition `t` on this rank: builds the local input from
// `src` (T truth), runs the steps the plan gives its TP group (lowered op,
// identity, or the generic redistribution) and reports the output against
// the truth laid out by `dst`.
void runTpTransition(RankContext& ctx, const ExecEnv& env, int t);

// The mesh dims whose groups transition `tp` runs collectives over, on any
// rank of `mesh`: the communicating steps of tpExecutionFor, dims of size > 1.
std::vector<int> tpTransitionMeshDims(const TpPlan& tp, const Mesh& mesh, RunMode mode);

}  // namespace hsdp
