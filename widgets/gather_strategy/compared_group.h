// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "cost/strategy_comparison.h"
#include "plan/plan.h"

namespace hsdp {

struct PlanIndex;
struct SelectionState;

// The gathered group a selection is about: its group, else its focus param's,
// else the plan's first gathered group; -1 when the plan gathers nothing.
int comparedGroup(const Plan& plan, const PlanIndex& index, const SelectionState& state);

}  // namespace hsdp
