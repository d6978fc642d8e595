// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "plan_diff/plan_diff.h"

namespace hsdp {

// The `hsdp-plan-diff/1` document: every list of the PlanDiff in full, keys
// always present (null or [] when nothing changed). Documented in docs/diff.md.
nlohmann::ordered_json planDiffToJson(const PlanDiff& diff, const std::string& beforeLabel,
                                      const std::string& afterLabel);

}  // namespace hsdp
