// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "types/scenario.h"

namespace hsdp {

// Every process group a run of `scenario` may use: each group along each
// mesh dim of each mesh (size > 1). A run connects only those usedGroups names
// (run/used_groups.h); a saved trace may name no other (saved/saved_run.h).
std::vector<std::vector<int>> declaredGroups(const Scenario& scenario);

}  // namespace hsdp
