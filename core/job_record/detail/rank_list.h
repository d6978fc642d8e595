// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/json_text.h"

namespace hsdp {

// A list of global ranks as PyTorch writes it: Flight Recorder's pg_config
// and Kineto's "Process Group Ranks" hold the text "[0, 1, 2]" (Python's
// repr of the list), older writers an array. Ranks are integers >= 0, none
// twice. Throws ScenarioError at `path`.
std::vector<int64_t> readRankList(const Json& value, const std::string& path);

}  // namespace hsdp
