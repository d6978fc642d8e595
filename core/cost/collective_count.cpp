// SPDX-License-Identifier: Apache-2.0
#include "cost/collective_count.h"

#include "cost/step_schedule.h"

namespace hsdp {

int64_t realSizeCollectives(const Scenario& scenario, const Plan& plan) {
    std::vector<std::vector<int64_t>> paramShapes, tpShapes;
    for (const auto& p : scenario.params) paramShapes.push_back(p.shape);
    for (const auto& t : scenario.tpTransitions) tpShapes.push_back(t.shape);
    try {
        return int64_t(stepSchedule(scenario, plan, paramShapes, tpShapes,
                                    ScheduleBudget{kStudioScheduleItems, {}})
                           .collectives.size());
    } catch (const ScheduleTooLarge&) {
        return 0;
    }
}

}  // namespace hsdp
