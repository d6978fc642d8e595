// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// Per-rank ownership (reference: select_owned_records) for every rank of the
// world: a rank owns a param when its reduced replicate coordinate on the
// group's mesh equals the param's owner; a rank outside the mesh owns nothing.
// Groups must have their batches' owners filled. Cost: O(sum of mesh sizes
// over groups + owned entries), independent of the params per group.
std::vector<RankOwnership> rankOwnership(const std::vector<Group>& groups,
                                         const std::vector<ParamSpec>& specs, int worldSize,
                                         std::optional<int64_t> replicaCount);

}  // namespace hsdp
