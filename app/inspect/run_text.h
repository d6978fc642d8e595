// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "verify/run_result.h"

namespace hsdp::cli {

// The run verdict for people: the failures first with their detail, then a
// one-line summary per kind and the totals.
std::string runToText(const RunResult& result);
// The step's memory: the highest measured peak and where, and whether the
// prediction (null: none, a reference run) matches every rank. Empty without
// measurements.
std::string runMemoryText(const RunResult& result, const std::vector<StepMemory>* predicted);

}  // namespace hsdp::cli
