// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types/geometry.h"
#include "verify/run_result.h"

namespace hsdp {

// One range of rows a run names as wrong: where they sit (`rows`, where the
// truth has other rows) and which true rows they hold instead (`held`,
// empty when they hold no row's values: padding, garbage, missing).
struct WrongRowOverlayBand {
    IndexRange rows;
    IndexRange held;
};

// The wrong rows of one param on one rank as the tensor layout view draws
// them: read from the run's Mismatch records (rows, heldRows), never guessed.
struct WrongRowOverlay {
    int param = -1;
    int rank = -1;
    std::string what;     // gather | update | step | tp
    std::string text;     // Mismatch::text
    int64_t runRows = 0;  // extent of dim 0 as run (a shrunk run: smaller)
    std::vector<WrongRowOverlayBand> bands;

    bool isEmpty() const { return bands.empty(); }
};

// `param`'s wrong rows on the first of `ranks` (ascending) that has any, or
// on the first rank with any when none of `ranks` has: a gather mismatch
// first (the full tensor the owner computes on), then an update, then the
// step. Empty when the run has none for the param.
WrongRowOverlay wrongRowsOf(const RunResult& run, int param, const std::vector<int>& ranks);

}  // namespace hsdp
