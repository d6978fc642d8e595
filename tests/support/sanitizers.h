// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the sanitizer builds change for a test. Which sanitizer instruments
// it, whichever compiler built it: GCC defines __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__, clang answers __has_feature; HSDP_ADDRESS_SANITIZED
// and HSDP_THREAD_SANITIZED are 1 or 0. And the run budgets their presets set.
#if defined(__SANITIZE_ADDRESS__)
#define HSDP_ADDRESS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HSDP_ADDRESS_SANITIZED 1
#endif
#endif
#ifndef HSDP_ADDRESS_SANITIZED
#define HSDP_ADDRESS_SANITIZED 0
#endif

#if defined(__SANITIZE_THREAD__)
#define HSDP_THREAD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HSDP_THREAD_SANITIZED 1
#endif
#endif
#ifndef HSDP_THREAD_SANITIZED
#define HSDP_THREAD_SANITIZED 0
#endif

#include <QtGlobal>

#include <algorithm>

namespace hsdp::testing {

// What the sanitizer presets divide the run budgets by
// (HSDP_RUN_BUDGET_DIVISOR: 4 under ASan, 16 under TSan), 1 otherwise.
inline int runBudgetDivisor() {
    return std::max(1, qEnvironmentVariableIntValue("HSDP_RUN_BUDGET_DIVISOR"));
}

}  // namespace hsdp::testing
