// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "calibrate/job_calibration.h"

namespace hsdp::cli {

// check-job's "Recorded times" block: per op, the job's timed collectives
// (each one's shortest member duration) beside the cost model's prediction
// for them on `clusterName` (`clusterChosen`: named by --cluster, not the
// default); "" when nothing is timed.
std::string recordedTimesText(const TimedCollectives& timed, const std::string& clusterName,
                              bool clusterChosen);

// The same as check-job --json's "timings" object (null when nothing is timed).
nlohmann::ordered_json recordedTimesJson(const TimedCollectives& timed,
                                         const std::string& clusterName);

}  // namespace hsdp::cli
