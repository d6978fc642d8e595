// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include "job_check/job_check.h"

namespace hsdp {

// check-job --json: {"format": "hsdp-job-check/1", "ranks", "matched",
// "divergences", "first"} (docs/job-records.md, "Checking a job against its
// plan"), the divergences in the job's order, "first" one of them or null.
nlohmann::ordered_json jobCheckToJson(const JobCheck& check, const PlannedStep& step,
                                      const Scenario& scenario, const Plan& plan);

}  // namespace hsdp
