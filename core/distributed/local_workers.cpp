// SPDX-License-Identifier: Apache-2.0
#include "distributed/local_workers.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

namespace hsdp {

namespace {

[[noreturn]] void execWorker(const std::vector<std::string>& argv, pid_t parent) {
    // Dies with the parent, even one killed with SIGKILL: no orphan worker.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
}

std::string describeStatus(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    return "ended with wait status " + std::to_string(status);
}

}  // namespace

LocalWorkers::~LocalWorkers() {
    for (int pid : pids_)
        if (pid > 0) kill(pid, SIGKILL);
    for (int pid : pids_)
        if (pid > 0) waitpid(pid, nullptr, 0);
}

void LocalWorkers::start(const std::vector<std::vector<std::string>>& argvs) {
    const pid_t self = getpid();
    for (const auto& argv : argvs) {
        const pid_t pid = fork();
        if (pid < 0)
            throw std::runtime_error(std::string("cannot start a worker process: ") +
                                     std::strerror(errno));
        if (pid == 0) execWorker(argv, self);
        pids_.push_back(pid);
    }
}

std::vector<WorkerExit> LocalWorkers::wait(std::chrono::milliseconds grace) {
    std::vector<WorkerExit> exits(pids_.size());
    std::vector<char> killed(pids_.size(), 0);
    size_t running = pids_.size();
    std::optional<std::chrono::steady_clock::time_point> deadline;
    while (running > 0) {
        // Only our own workers, by pid: the caller may have other children.
        for (size_t i = 0; i < pids_.size(); ++i) {
            int status = 0;
            if (pids_[i] <= 0 || waitpid(pids_[i], &status, WNOHANG) != pids_[i]) continue;
            exits[i] = {int(i),
                        pids_[i],
                        WIFEXITED(status) && WEXITSTATUS(status) == 0,
                        killed[i] != 0,
                        int(pids_.size() - running),
                        killed[i] ? "was still running " + std::to_string(grace.count() / 1000) +
                                        " s after another worker ended, and was killed"
                                  : describeStatus(status)};
            pids_[i] = 0;
            --running;
            // The workers of a healthy run end together (they wait for each
            // other at the end): one that outlives another by the grace hangs.
            if (!deadline) deadline = std::chrono::steady_clock::now() + grace;
        }
        if (deadline && std::chrono::steady_clock::now() > *deadline)
            for (size_t i = 0; i < pids_.size(); ++i)
                if (pids_[i] > 0 && !killed[i]) {
                    kill(pids_[i], SIGKILL);
                    killed[i] = 1;
                }
        if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return exits;
}

}  // namespace hsdp
