// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime/trace.h"
#include "verify/run_result.h"

namespace hsdp {

// The inverse of runToJson: a `hsdp-inspect run --json` result (hsdp-run/1)
// read back into the RunResult it was written from (without its trace, which
// travels in its own file). Throws ScenarioError at the JSON path of the
// first value that is not what the format says.
RunResult runFromJson(const nlohmann::ordered_json& json);

// A `run --trace` file read back: the events of traceToChromeJson, and the
// parameter names its events carried ("param_names"), so a reader can tell
// whose parameters they were.
struct SavedTrace {
    Trace trace;                            // ordered by (rank, start), as recorded
    std::map<int, std::string> paramNames;  // parameter index -> name, as written
    int processes = 0;                      // ranks with a process_name entry
};

// The inverse of traceToChromeJson. Throws ScenarioError at the JSON path of
// the first event that is not a collective as the trace format writes it.
SavedTrace traceFromChromeJson(const nlohmann::ordered_json& json);

}  // namespace hsdp
