// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which sanitizer instruments this test, whichever compiler built it: GCC
// defines __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang answers
// __has_feature. HSDP_ADDRESS_SANITIZED and HSDP_THREAD_SANITIZED are 1 or 0.
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
