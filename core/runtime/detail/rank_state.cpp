// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/rank_state.h"

#include "runtime/detail/gloo_communicator.h"

namespace hsdp {

void RankState::admit(const CollectiveCall& call) {
    ++collectives_;
    if (run_.cancelRequested()) fail(cancelledError(rank_, call));
    const int failed = run_.failedRank();
    if (failed >= 0 && !run_.failedByInjection()) fail(abortedError(rank_, failed, call));
    const auto& fault = run_.options().fault;
    if (fault && fault->rank == rank_ && fault->collective == collectives_) {
        if (failed < 0) run_.noteInjection();
        fail(injectedFaultError(rank_, collectives_, call));
    }
}

void RankState::fail(const RunError& error) {
    if (!failed_) run_.noteFailure(error);
    failed_ = true;
    closeAll();
    throw error;
}

void RankState::closeAll() {
    for (GlooCommunicator* communicator : communicators_) communicator->close();
}

}  // namespace hsdp
