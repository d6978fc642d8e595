// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/detail/call_registry.h"
#include "runtime/trace.h"
#include "runtime/world.h"

namespace hsdp {

// What all rank threads of one run share: options, the clock, sequence ids,
// the trace, and the failure record. Thread-safe.
class RunState {
public:
    explicit RunState(const WorldOptions& options);

    const WorldOptions& options() const { return options_; }
    // The ranks this process runs (every rank of the world unless split), ascending.
    const std::vector<int>& localRanks() const { return localRanks_; }
    bool isLocal(int rank) const;

    // Global id of a group's `groupSeq`-th collective; from the caller's
    // recorder when there is one, else from a recorder private to this run,
    // so error messages can always name it.
    int64_t globalSeq(const std::string& groupKey, int64_t groupSeq);
    void record(TraceEvent event);  // dropped when no recorder was given
    CallRegistry& calls() { return calls_; }

    void startClock();     // called once, when the bodies start
    double nowUs() const;  // microseconds since startClock()
    // From this state's creation (before any rank connects) to startClock().
    double connectSeconds() const;

    bool cancelRequested() const;
    // The rank whose failure was noted first, or -1 while the run is healthy.
    int failedRank() const { return failedRank_.load(std::memory_order_acquire); }
    // Whether the first failure is the injected fault (WorldOptions::fault):
    // the other ranks then go on as a real job's would, until they need the
    // stopped rank, so a Flight Recorder dump of the run shows a real hang.
    bool failedByInjection() const { return injected_.load(std::memory_order_acquire); }
    void noteInjection() { injected_.store(true, std::memory_order_release); }

    // Keeps the first failure noted (by time) as the run's headline; later
    // ones are usually consequences (peers seeing closed sockets).
    void noteFailure(const RunError& error);
    std::optional<RunError> firstFailure() const;

    // A rank whose body is over waits here until every rank here is over or the
    // run has failed. Until then its sockets stay open (peers may still be
    // reading what it sent); after a failure they must close at once, since
    // ranks that stopped early leave their peers blocked on them.
    void finishAndWait();

private:
    const WorldOptions& options_;
    std::vector<int> localRanks_;
    TraceRecorder ownSeqs_;
    CallRegistry calls_;
    const std::chrono::steady_clock::time_point created_;
    std::chrono::steady_clock::time_point start_;
    std::atomic<int> failedRank_{-1};
    std::atomic<bool> injected_{false};
    mutable std::mutex failureMutex_;
    std::optional<RunError> first_;
    std::condition_variable finishedCv_;
    int finished_ = 0;
};

}  // namespace hsdp
