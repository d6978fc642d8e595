// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hsdp {

// How one worker process ended.
struct WorkerExit {
    int proc = 0;
    int pid = 0;
    bool clean = false;  // exited with status 0
    bool hung = false;   // still running after the grace, so killed by wait()
    int order = 0;       // 0 for the first worker to end, 1 for the next...
    std::string how;     // "exited with status 3", "was killed by signal 9 (Killed)"
};

// The worker processes of a split run on this host, started and reaped by
// this process. None outlives it: each dies with its parent (Linux's
// PR_SET_PDEATHSIG), and the destructor kills and reaps any still running.
class LocalWorkers {
public:
    LocalWorkers() = default;
    LocalWorkers(const LocalWorkers&) = delete;
    LocalWorkers& operator=(const LocalWorkers&) = delete;
    ~LocalWorkers();

    // Starts worker i as argvs[i] (argvs[i][0]: the program's path). Throws
    // std::runtime_error when a process cannot be started.
    void start(const std::vector<std::vector<std::string>>& argvs);

    // Waits for every worker. Once one has ended, the others get `grace` to
    // end too (a dead or hung worker's peers fail within the collective
    // timeout and write what they have; healthy workers end together), then
    // are killed: a worker that hangs (e.g. stopped) cannot hold the run.
    std::vector<WorkerExit> wait(std::chrono::milliseconds grace);

    std::vector<int> pids() const { return pids_; }

private:
    std::vector<int> pids_;  // 0 once reaped
};

}  // namespace hsdp
