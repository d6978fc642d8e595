// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/plan.h"
#include "plan_diff/plan_diff.h"
#include "types/scenario.h"

namespace hsdp {

// The parts of diffPlans outside params and groups: options, meshes, ranks,
// TP transitions and diagnostics. Fills those fields of `out`.
void diffScenarioParts(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                       PlanDiff& out);

}  // namespace hsdp
