// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include "scenario/scenario_error.h"
#include "types/scenario.h"

namespace hsdp {

// Reads an `hsdp-scenario/1` document (docs/scenario-format.md): strict, repeat blocks
// expanded, meshes indexed. Throws ScenarioError naming the JSON path of the
// first problem. Placement validity beyond spelling (shard dim in range,
// Partial on a param) is left to the planner's diagnostics.
Scenario readScenario(std::string_view jsonText);
// Same, from a document parseStrictJson() already parsed (an editor keeps one
// and re-reads it after every change).
Scenario readScenarioJson(const nlohmann::ordered_json& document);

// Same, from a file; errors (an unreadable file too) name the file.
Scenario readScenarioFile(const std::string& filePath);
// The file's text, refused as readScenarioFile refuses it (missing, a
// directory, unreadable, larger than kMaxScenarioBytes), errors naming the file.
std::string readScenarioFileText(const std::string& filePath);
// Same, from a stream (standard input for `plan -`); errors name `name`.
Scenario readScenarioStream(std::istream& in, const std::string& name);

// Larger input is refused with this figure in the message.
inline constexpr size_t kMaxScenarioBytes = size_t(256) << 20;

}  // namespace hsdp
