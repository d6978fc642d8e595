// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "job_record/flight_recorder_dump.h"
#include "scenario/json_text.h"

namespace hsdp {

// One element of a dump's "entries" at `path`, read strictly from either
// encoding (a pickle read into Json: tuples are arrays, None is null).
// Throws ScenarioError at the path of the first problem.
FlightRecorderEntry readFlightRecorderEntry(const Json& value, const std::string& path);

}  // namespace hsdp
