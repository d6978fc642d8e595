// SPDX-License-Identifier: Apache-2.0
#include "cost/plan_scenario.h"

#include "cost/gather_strategy_choice.h"
#include "plan/planner.h"

namespace hsdp {

Plan planScenario(const Scenario& scenario, const Cluster* cluster,
                  const std::string& clusterName) {
    Plan plan = makePlan(scenario);
    if (cluster) {
        const std::string name = !clusterName.empty()     ? clusterName
                                 : !cluster->name.empty() ? cluster->name
                                                          : "the chosen cluster";
        chooseGatherStrategies(scenario, plan, *cluster, name);
    } else {
        chooseGatherStrategies(scenario, plan, defaultStrategyCluster(), "loopback");
    }
    return plan;
}

}  // namespace hsdp
