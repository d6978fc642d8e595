// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/run_state.h"

#include <cstdio>
#include <cstdlib>

#include <algorithm>

namespace hsdp {

namespace {

std::vector<int> ranksHere(const WorldOptions& options) {
    std::vector<int> ranks;
    if (options.share) {
        ranks = options.share->ranks;
        std::sort(ranks.begin(), ranks.end());
        return ranks;
    }
    for (int r = 0; r < options.worldSize; ++r) ranks.push_back(r);
    return ranks;
}

double epochMicros() {
    return std::chrono::duration<double, std::micro>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

RunState::RunState(const WorldOptions& options)
    : options_(options),
      localRanks_(ranksHere(options)),
      created_(std::chrono::steady_clock::now()),
      start_(created_) {}

bool RunState::isLocal(int rank) const {
    return std::binary_search(localRanks_.begin(), localRanks_.end(), rank);
}

int64_t RunState::globalSeq(const std::string& groupKey, int64_t groupSeq) {
    TraceRecorder& recorder = options_.trace ? *options_.trace : ownSeqs_;
    return recorder.globalSeq(groupKey, groupSeq);
}

void RunState::record(TraceEvent event) {
    if (options_.trace) options_.trace->record(std::move(event));
}

void RunState::startClock() {
    start_ = std::chrono::steady_clock::now();
}

double RunState::connectSeconds() const {
    return std::chrono::duration<double>(start_ - created_).count();
}

double RunState::nowUs() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_)
        .count();
}

bool RunState::cancelRequested() const {
    return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
}

void RunState::noteFailure(const RunError& error) {
    // Secondary failures never reach the caller; this shows them when debugging.
    static const bool verbose = std::getenv("HSDP_RUNTIME_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "[hsdp runtime %.3f ms] %s\n", nowUs() / 1000, error.what());
    {
        std::lock_guard lock(failureMutex_);
        if (first_) return;
        first_ = error;
        first_->epochUs = epochMicros();
        failedRank_.store(error.rank, std::memory_order_release);
        finishedCv_.notify_all();
    }
    // Outside the lock: telling the other processes touches the file system.
    if (options_.share && options_.share->failed) options_.share->failed();
}

void RunState::finishAndWait() {
    std::unique_lock lock(failureMutex_);
    ++finished_;
    finishedCv_.notify_all();
    finishedCv_.wait(lock,
                     [this] { return first_.has_value() || finished_ == int(localRanks_.size()); });
}

std::optional<RunError> RunState::firstFailure() const {
    std::lock_guard lock(failureMutex_);
    return first_;
}

}  // namespace hsdp
