// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "verify/run_result.h"

namespace hsdp::cli {

// The run verdict for people: the failures first with their detail, then a
// one-line summary per kind and the totals.
std::string runToText(const RunResult& result);

}  // namespace hsdp::cli
