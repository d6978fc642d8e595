// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "cluster/cluster.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The finished plan of `scenario`: makePlan, then every gather strategy left
// to "auto" settled on `cluster` (chooseGatherStrategies), or on the loopback
// preset this machine runs when none is given. Every front end plans through
// it; runPlan and costPlan refuse a plan with an unsettled "auto".
// `clusterName` names the cluster in each settled group's reason (default:
// the cluster's own name).
Plan planScenario(const Scenario& scenario, const Cluster* cluster = nullptr,
                  const std::string& clusterName = {});

}  // namespace hsdp
