#pragma once

#include <string>
#include <vector>

#include "redistribute/redistribute.h"
#include "run/exec_env.h"
#include "runtime/world.h"

namespace hsdp {

// RUN.md §4 for transition `t` on this rank: builds the local input from
// `src` (T truth), runs the plan's path for its TP group (lowered op,
// identity, or the generic redistribution) and reports the output against
// the truth laid out by `dst`.
void runTpTransition(RankContext& ctx, const ExecEnv& env, int t);

// The path every rank of the mesh takes for `tp` and the steps of the
// caller's group. When some groups fall back and the fallback spans mesh dims
// other than tp, every group runs the fallback (`widened`), or the groups
// would wait on each other.
struct TpExecution {
    std::string path;  // lowered | identity | fallback
    std::vector<RedistStep> steps;
    bool widened = false;
};
TpExecution tpExecutionFor(const TpPlan& tp, const TpTransition& spec, int rank, bool reference);

}  // namespace hsdp
