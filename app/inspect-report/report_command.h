// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp::cli {

// hsdp-inspect report: the plan (and a run) as one HTML or PDF document.
int writeReportCommand(const std::vector<std::string>& args);
extern const char* const kReportHelp;

}  // namespace hsdp::cli
