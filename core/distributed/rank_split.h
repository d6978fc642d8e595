// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "plan/plan.h"
#include "run/runner.h"
#include "runtime/world.h"
#include "types/scenario.h"

namespace hsdp {

// The ranks each of `procs` processes runs: the world in mesh order (the
// first mesh's ranks row-major, then the other meshes' ranks not yet taken,
// then any rank no mesh uses), cut into `procs` consecutive blocks whose
// sizes differ by at most one. So a process holds whole rows of the mesh's
// last dims, as a host holds its GPUs. Throws std::invalid_argument unless
// 1 <= procs <= world size.
std::vector<std::vector<int>> splitRanks(const Scenario& scenario, int procs);

// The largest estimate over the processes of a run split over `procs`.
SocketEstimate splitSocketEstimate(const Scenario& scenario, const Plan& plan,
                                   const RunOptions& options, int procs);

// The fewest processes whose every estimate fits the open-file limit (1:
// the run fits in one process). Throws std::runtime_error when even one
// rank per process does not fit.
int autoProcs(const Scenario& scenario, const Plan& plan, const RunOptions& options);

}  // namespace hsdp
