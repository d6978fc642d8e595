// SPDX-License-Identifier: Apache-2.0
#include "progress_line.h"

#include <unistd.h>

#include <cstdio>

namespace hsdp::cli {

ProgressLine::ProgressLine()
    : start_(std::chrono::steady_clock::now()), lastPrint_(start_), terminal_(isatty(2)) {}

void ProgressLine::update(double fraction, const std::string& what) {
    std::lock_guard lock(mutex_);
    auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1)) return;
    double elapsed = std::chrono::duration<double>(now - start_).count();
    int percent = static_cast<int>(fraction * 100);
    if (terminal_) {
        if (now - lastPrint_ < std::chrono::milliseconds(200)) return;
        std::fprintf(stderr, "\r\033[K[%3d%%] %5.1fs  %s", percent, elapsed, what.c_str());
    } else {
        if (percent / 10 == lastDecile_) return;
        lastDecile_ = percent / 10;
        std::fprintf(stderr, "[%3d%%] %5.1fs  %s\n", percent, elapsed, what.c_str());
    }
    std::fflush(stderr);
    lastPrint_ = now;
    printed_ = true;
}

void ProgressLine::finish() {
    std::lock_guard lock(mutex_);
    if (printed_ && terminal_) std::fputs("\r\033[K", stderr);
}

}  // namespace hsdp::cli
