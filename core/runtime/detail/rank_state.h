// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/detail/collective_error.h"
#include "runtime/detail/run_state.h"

namespace hsdp {

class GlooCommunicator;

// One rank's bookkeeping, used only by that rank's thread: its collective
// counter (fault injection counts every collective on every group), and the
// failure path that closes all of its connections at once.
class RankState {
public:
    RankState(RunState& run, int rank) : run_(run), rank_(rank) {}

    RunState& run() { return run_; }
    int rank() const { return rank_; }

    void addCommunicator(GlooCommunicator* communicator) { communicators_.push_back(communicator); }

    // Counts the collective, then refuses it (noting the failure and throwing
    // RunError) when the run is cancelled, another rank already failed, or
    // this is the injected fault.
    void admit(const CollectiveCall& call);

    // Notes `error` as this rank's failure, closes every Gloo context of this
    // rank (so peers blocked on it fail now, not at their timeout) and throws it.
    [[noreturn]] void fail(const RunError& error);
    void closeAll();
    bool hasFailed() const { return failed_; }  // fail() ran on this rank

private:
    RunState& run_;
    const int rank_;
    int64_t collectives_ = 0;
    bool failed_ = false;
    std::vector<GlooCommunicator*> communicators_;
};

}  // namespace hsdp
