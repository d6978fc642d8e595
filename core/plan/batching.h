// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// docs/plan.md §3 for one group: `params` in index order, `numelOf(i)` their numels
// (frozen params count too). Null cap: one batch in index order. Cap M: params
// by numel descending (stable), a batch closed right after the param that
// brings it to >= M, batches by numel descending (stable).
std::vector<std::vector<int>> splitIntoBatches(const std::vector<int>& params,
                                               const std::vector<ParamSpec>& specs,
                                               std::optional<int64_t> maxBatchNumel);

// Fills every group's batches (params and numel only) and returns the
// schedule: group order for a null cap, else groups by total numel
// descending (stable), each group's batches in order.
std::vector<ScheduleEntry> buildBatches(std::vector<Group>& groups,
                                        const std::vector<ParamSpec>& specs,
                                        std::optional<int64_t> maxBatchNumel);

int64_t totalNumel(const std::vector<int>& params, const std::vector<ParamSpec>& specs);

}  // namespace hsdp
