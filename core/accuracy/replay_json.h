// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "accuracy/step_replay.h"

namespace hsdp {

// run --cluster --replay (docs/cost-model.md, "Replaying a run").

// `prediction.replay`: measured_seconds, modelled_seconds, replayed_seconds,
// replay_error, and per duration class its measured and modelled seconds
// (summed), the makespan with it modelled and the error it carries; or
// `mismatches` when no replay was made.
nlohmann::ordered_json replayToJson(const StepReplay& replay);

// The text section: the three makespans, then the table of classes.
std::string replayToText(const StepReplay& replay);

}  // namespace hsdp
