// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "types/figures.h"
#include "types/placement.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

// docs/run.md §6: the data shapes a run uses. Plans always use the real shapes;
// a run whose buffers or Newton–Schulz work would exceed the budgets divides
// every dim by one factor (the smallest that fits), keeping ndim, which dims
// are sharded and whether each sharded dim divides evenly.
struct ShrinkDecision {
    std::vector<std::vector<int64_t>> paramShapes;
    std::vector<std::vector<int64_t>> tpShapes;
    std::optional<ShrinkInfo> info;  // nullopt: real shapes
};

ShrinkDecision decideShrink(const Scenario& scenario, const Plan& plan, int64_t maxBytes,
                            double flopBudget);

// The shapes at a given factor (no info): what decideShrink tries.
ShrinkDecision shrinkAtFactor(const Scenario& scenario, int64_t factor);

// Bytes a run holds, summed over ranks: local params and grads, gathered and
// update buffers, broadcast buffers, the single-device results, TP tensors.
int64_t estimateRunBytes(const Scenario& scenario, const Plan& plan,
                         const std::vector<std::vector<int64_t>>& paramShapes,
                         const std::vector<std::vector<int64_t>>& tpShapes);
// Newton–Schulz flops of the run: every computing owner plus the reference.
double estimateRunFlops(const Scenario& scenario, const Plan& plan,
                        const std::vector<std::vector<int64_t>>& paramShapes);

// One dim divided by `factor`, rounded to the nearest size that keeps
// divisibility by each of `divisors` as the original had it, never below the
// largest divisor (1 when unsharded) and never above the original.
int64_t shrinkDim(int64_t size, int64_t factor, const std::vector<int64_t>& divisors);

// The divisors that matter per tensor dim for `placements` on `meshShape`:
// the product of the mesh sizes sharding it, and that times the split factors.
std::vector<std::vector<int64_t>> shardDivisors(const std::vector<Placement>& placements,
                                                const std::vector<int64_t>& meshShape, int ndim);

}  // namespace hsdp
