// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// The `hsdp-plan/1` document of docs/plan.md §7 (every pinned key, plus meshes,
// per-param group ids and diagnostic messages). Coordinates are arrays,
// owners objects {"<param index>": [coord]}.
nlohmann::ordered_json planToJson(const Plan& plan, const Scenario& scenario);

}  // namespace hsdp
