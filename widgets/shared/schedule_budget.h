// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace hsdp {

// The most work items a step schedule the studio builds may hold (about 40
// bytes each, cost/step_schedule.h): the prediction's and each gather
// strategy's. A 16,384-rank MoE plan of three batches holds about 4 M and
// fits; at 131,072 ranks tens of millions do not, and the view says so
// (ScheduleTooLarge's text) instead of taking GiB; the CLI has no limit.
constexpr int64_t kStudioScheduleItems = 12'000'000;

}  // namespace hsdp
