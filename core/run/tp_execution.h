// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "plan/plan.h"
#include "redistribute/redistribute.h"
#include "verify/run_result.h"

namespace hsdp {

// What `rank` runs for `tp`, read from the plan (never re-planned): its
// group's path and steps, or the plan's fallback steps when the mesh has no
// tp dim. A reference run executes lowered steps in the seed's form.
struct TpExecution {
    TpPath path = TpPath::Fallback;
    const std::vector<RedistributionStep>* steps = nullptr;  // into the plan; null: not on the mesh
    bool widened = false;
    OpForm form = OpForm::Geometric;
};
TpExecution tpExecutionFor(const TpPlan& tp, int rank, RunMode mode);

}  // namespace hsdp
