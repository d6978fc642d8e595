// SPDX-License-Identifier: Apache-2.0
#include "stop_signals.h"

#include <atomic>
#include <cstddef>

namespace hsdp::cli {

namespace {

volatile sig_atomic_t caughtSignal = 0;
// Set count first and pointer last; the handler reads them the other way.
std::atomic<const int*> watchedPids{nullptr};
std::atomic<size_t> watchedCount{0};
static_assert(std::atomic<const int*>::is_always_lock_free &&
              std::atomic<size_t>::is_always_lock_free);

void killWatched() {
    const int* pids = watchedPids.load();
    const size_t count = watchedCount.load();
    for (size_t i = 0; pids && i < count; ++i)
        if (pids[i] > 0) kill(pids[i], SIGKILL);  // async-signal-safe
}

void onStopSignal(int signal) {
    caughtSignal = signal;
    killWatched();
}

}  // namespace

StopSignals::StopSignals() {
    caughtSignal = 0;
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
}

StopSignals::~StopSignals() {
    unwatch();
    for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    if (caughtSignal) raise(caughtSignal);
}

void StopSignals::watch(const std::vector<int>& pids) {
    unwatch();
    pids_ = pids;
    watchedCount.store(pids_.size());
    watchedPids.store(pids_.data());
    if (caughtSignal) killWatched();  // it came while the workers were starting
}

void StopSignals::unwatch() {
    watchedPids.store(nullptr);
    watchedCount.store(0);
}

}  // namespace hsdp::cli
