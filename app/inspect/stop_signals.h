// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <signal.h>

#include <vector>

namespace hsdp::cli {

// While alive, SIGINT, SIGTERM and SIGHUP do not end this process at once:
// they kill the watched worker processes, so the split run ends through its
// normal path and its private store folder is removed. The destructor (run
// after that cleanup) restores the previous handlers and raises the signal
// that came, so the exit status still says how the command ended.
class StopSignals {
public:
    StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
    ~StopSignals();

    // The processes a stop signal kills from now on (kills them at once when
    // one came already); unwatch() before they are reaped.
    void watch(const std::vector<int>& pids);
    void unwatch();

private:
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction previous_[3];
    std::vector<int> pids_;
};

}  // namespace hsdp::cli
