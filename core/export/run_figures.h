// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "plan/plan.h"
#include "types/scenario.h"
#include "verify/run_result.h"

namespace hsdp {

// A run's totals and its shrink in the words the CLI's run text, the
// studio's run line and the report share (conventions: model/figures.h).

// "2,816 collectives (8,960 per-rank events; 3,104 at real size, whose
// broadcasts take more chunks), sent 534.7 MiB in the shrunk run (≈ 29.3 TiB
// at real size), 5.67 s wall"
std::string runTotalsText(const RunResult& run);

// A shrunk run's ShrinkInfo::realCollectives set from realSizeCollectives
// (cost/collective_count.h): the count runTotalsText holds the run's
// against. A run of the real shapes is left as it is.
void noteRealSizeCollectives(const Scenario& scenario, const Plan& plan, RunResult& run);
// Where the wall time went: "computing the single-device truth 1.75 s,
// connecting the groups 0.0336 s, the collectives and checks 3.13 s" (the
// truth and the rest only when the run measured its preparation).
std::string runTimesText(const RunResult& run);

// "shrunk run: buffers 23.1 TiB (…) > --max-bytes 2.0 GiB: every dim divided
// by 56 (…); its byte counts and bandwidths are of the shrunk shapes";
// empty for a run of the real shapes.
std::string runShrinkText(const RunResult& run);

}  // namespace hsdp
