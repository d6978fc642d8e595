// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp::bench {

// One finished (or killed) child process, timed from spawn to exit.
struct ProcessRun {
    double wallSeconds = 0;
    double cpuSeconds = 0;  // user + system of the child
    int exitCode = -1;      // -1: killed by a signal or not started
    bool timedOut = false;  // killed after the timeout
    std::string error;      // why it could not start, else ""
};

// Runs `argv` (argv[0] looked up on PATH) with stdout written to `stdoutPath`
// and stderr to `stdoutPath` + ".err"; kills it after `timeoutSeconds`.
ProcessRun runProcess(const std::vector<std::string>& argv, const std::string& stdoutPath,
                      double timeoutSeconds);

}  // namespace hsdp::bench
