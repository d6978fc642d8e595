// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"

namespace hsdp {

// The plan's imbalance measure for owner loads: the heaviest coordinate's
// numel over the mean numel of all coordinates (1.0 is perfectly even).
// nullopt when there is no coordinate or no load at all.
std::optional<double> loadImbalance(const std::vector<int64_t>& numels);
std::optional<double> loadImbalance(const std::vector<CoordLoad>& loads);
std::optional<double> loadImbalance(
    const OwnerLoads& loads);  // the same figure, from its loaded coordinates

}  // namespace hsdp
