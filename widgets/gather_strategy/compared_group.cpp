// SPDX-License-Identifier: Apache-2.0
#include "gather_strategy/compared_group.h"

#include "derived/plan/plan_index.h"
#include "derived/plan/plan_selection.h"

namespace hsdp {

int comparedGroup(const Plan& plan, const PlanIndex& index, const SelectionState& state) {
    auto gathered = [&](int g) {
        return g >= 0 && size_t(g) < plan.groups.size() && gathers(plan.groups[size_t(g)]);
    };
    if (gathered(state.group)) return state.group;
    if (!state.params.empty() && size_t(state.params.front()) < index.params.size()) {
        const int g = index.params[size_t(state.params.front())].group;
        if (gathered(g)) return g;
    }
    for (size_t g = 0; g < plan.groups.size(); ++g)
        if (gathered(int(g))) return int(g);
    return -1;
}

}  // namespace hsdp
