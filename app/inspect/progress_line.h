// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace hsdp::cli {

// A progress line on stderr for runs longer than a second: silent before
// that, then at most ~5 updates a second. On a terminal it rewrites one line;
// otherwise (CI logs) it prints a line per 10% so logs stay short.
class ProgressLine {
public:
    ProgressLine();
    void update(double fraction, const std::string& what);  // thread-safe
    void finish();

private:
    std::mutex mutex_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point lastPrint_;
    bool terminal_ = false;
    bool printed_ = false;
    int lastDecile_ = -1;
};

}  // namespace hsdp::cli
