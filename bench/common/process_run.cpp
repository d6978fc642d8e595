// SPDX-License-Identifier: Apache-2.0
// Whole-process timing for hsdp-bench plan: what a user waits for, start-up,
// reading, planning and writing included.
#include "process_run.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

extern char** environ;

namespace hsdp::bench {

namespace {

// Kills `pid` unless stop() comes first. The child stays a zombie until it is
// reaped after stop(), so its pid cannot be reused by then.
class Watchdog {
public:
    Watchdog(pid_t pid, double timeoutSeconds)
        : thread_([this, pid, timeoutSeconds] {
              std::unique_lock lock(mutex_);
              if (!stopped_.wait_for(lock, std::chrono::duration<double>(timeoutSeconds),
                                     [this] { return stop_; })) {
                  kill(pid, SIGKILL);
                  fired_ = true;
              }
          }) {}

    bool stop() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        stopped_.notify_one();
        thread_.join();
        return fired_;
    }

private:
    std::mutex mutex_;
    std::condition_variable stopped_;
    bool stop_ = false;
    bool fired_ = false;
    std::thread thread_;  // last: starts after the members it uses
};

double seconds(const timeval& t) {
    return double(t.tv_sec) + double(t.tv_usec) * 1e-6;
}

}  // namespace

ProcessRun runProcess(const std::vector<std::string>& argv, const std::string& stdoutPath,
                      double timeoutSeconds) {
    ProcessRun run;
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    const std::string errPath = stdoutPath + ".err";
    posix_spawn_file_actions_addopen(&files, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0) {
        run.error = argv[0] + ": " + std::strerror(spawned);
        return run;
    }
    Watchdog watchdog(pid, timeoutSeconds);
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.timedOut = watchdog.stop();
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    run.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
    return run;
}

}  // namespace hsdp::bench
