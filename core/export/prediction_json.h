// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "accuracy/run_prediction.h"

namespace hsdp {

// run --cluster (docs/run.md, docs/cost-model.md): a run's measured step and
// collectives beside the cost model's prediction of them.

// The `prediction` object of hsdp-run/1: cluster, measured_step_seconds (null
// when not measured), predicted_seconds, makespan_error, the per-collective
// median error overall and per op, and the schedule's mismatches with the
// trace when there are any.
nlohmann::ordered_json predictionToJson(const RunPrediction& prediction);

// `run` JSON with `step_seconds` and `predicted_seconds` right after
// `seconds`, and `prediction` at the end.
void addPrediction(nlohmann::ordered_json& runJson, const RunPrediction& prediction);

// The text section: which figures are measured, which predicted, and the error.
std::string predictionToText(const RunPrediction& prediction);

}  // namespace hsdp
