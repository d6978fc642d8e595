// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "scenario/json_text.h"
#include "types/scenario.h"

namespace hsdp {

// Reads the top-level `options` object; absent keys keep PlanOptions' defaults.
PlanOptions readOptions(const Json& options, const std::string& path);

}  // namespace hsdp
