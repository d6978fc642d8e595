#include "runtime/run_state.h"

namespace hsdp {

RunState::RunState(const WorldOptions& options) : options_(options), start_(std::chrono::steady_clock::now()) {}

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

double RunState::nowUs() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
}

bool RunState::cancelRequested() const {
    return options_.cancel && options_.cancel->load(std::memory_order_relaxed);
}

void RunState::noteFailure(const RunError& error) {
    std::lock_guard lock(failureMutex_);
    ++failures_;
    if (first_) return;
    first_ = error;
    failedRank_.store(error.rank, std::memory_order_release);
}

std::optional<RunError> RunState::firstFailure() const {
    std::lock_guard lock(failureMutex_);
    return first_;
}

int RunState::failureCount() const {
    std::lock_guard lock(failureMutex_);
    return failures_;
}

}  // namespace hsdp
