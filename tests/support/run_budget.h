// SPDX-License-Identifier: Apache-2.0
#pragma once

// A real run's options for a test. The sanitizer presets divide the run's
// memory and flop budgets (HSDP_RUN_BUDGET_DIVISOR: AddressSanitizer runs
// several times, ThreadSanitizer about ten times slower than the plain
// build); the run then shrinks its tensors by a larger factor, which keeps
// every scenario's ndim, sharded dims and divisibility: the same collectives
// and hazards on smaller buffers.

#include "run/runner.h"
#include "sanitizers.h"

namespace hsdp::testing {

inline RunOptions budgetedRunOptions(RunOptions options = {}) {
    const int divisor = runBudgetDivisor();
    options.maxBytes /= divisor;
    options.flopBudget /= divisor;
    return options;
}

}  // namespace hsdp::testing
