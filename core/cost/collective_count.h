// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// How many collectives the optimizer step issues at the scenario's real
// shapes, as `plan --cluster` counts them (the step schedule's): what a
// shrunk run's count is held against, since its broadcasts, cut into chunks
// of at most broadcast_max_bytes, need fewer chunks than the real tensors
// do. 0 when the schedule would outgrow the studio's budget
// (kStudioScheduleItems).
int64_t realSizeCollectives(const Scenario& scenario, const Plan& plan);

}  // namespace hsdp
