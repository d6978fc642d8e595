// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "verify/run_result.h"

namespace hsdp {

// docs/run.md §5 `hsdp-run/1`: format, mode, world_size, verified, shrink,
// params, tp_transitions, collectives, bytes, seconds (exact keys), plus
// error, per-param shape_run and mismatches (rank, what, rows, first bad element).
// `predicted`: the model's memory for the run's shapes (cost/step_memory_model.h),
// one per rank, shown beside what each rank measured; null leaves it out
// (a reference run: the model predicts the corrected step).
nlohmann::ordered_json runToJson(const RunResult& result,
                                 const std::vector<StepMemory>* predicted = nullptr);

}  // namespace hsdp
