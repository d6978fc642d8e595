// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"

namespace hsdp {

// A selection's positions mean something only in the plan they were made on.
// These two functions carry a SelectionState to another plan, so that a view
// holding one plan never indexes it with positions of another.

// `state` with every position `plan` does not have dropped: params, a group,
// a batch of that group, a transition, ranks outside the world. The
// collective (a run's seq) is left to the run views, which check it against
// their run.
SelectionState boundedSelection(const SelectionState& state, const PlanResult& plan);

// `state`, made on `from`, in the positions of `to`: params and transitions
// by name, a group and a batch by the params they hold, ranks by number
// while the world has them; what `to` lacks is dropped. The same plan (or no
// `from`) only bounds it.
SelectionState translatedSelection(const SelectionState& state, const PlanResult& from,
                                   const PlanResult& to);

}  // namespace hsdp
