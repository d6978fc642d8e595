// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "cost/plan_cost.h"

namespace hsdp {

// The `cost` object of `plan --json --cluster` (docs/cost-model.md "JSON"):
// the cluster as costed, step_seconds, the critical path, per-phase totals,
// every rank's finish, busy and waiting seconds, and the mesh dims whose
// groups cross nodes. Times are predicted seconds.
nlohmann::ordered_json costToJson(const PlanCost& cost);

}  // namespace hsdp
