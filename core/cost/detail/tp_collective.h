// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "cost/step_schedule.h"
#include "redistribute/redistribute.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

// The collective one communicating step of a TP redistribution makes at mesh
// coordinate `coord`, sized as redistribute/redistribute_exec.cpp sends it
// (padded blocks of the widest member): its op and wire bytes, the rest of
// the schedule's labels left for the caller.
ScheduledCollective tpStepCollective(const TpTransition& spec, const Mesh& mesh,
                                     const std::vector<int64_t>& shape,
                                     const RedistributionStep& step, const Coord& coord);

}  // namespace hsdp
