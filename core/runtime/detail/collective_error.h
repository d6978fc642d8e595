// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/trace.h"
#include "runtime/world.h"
#include "types/figures.h"

namespace hsdp {

// One collective call as error messages name it.
struct CollectiveCall {
    std::string_view op;
    const std::vector<int>& groupRanks;  // global ranks
    int64_t seq = -1;                    // global sequence number
    const CollectiveLabel& label;
    int64_t groupSeq = 0;  // the group's own count, from 1 (Flight Recorder's collective_seq_id)
};

// "broadcast #3 of group [2,3], phase update-broadcast, schedule entry 0, params [1]"
std::string describeCall(const CollectiveCall& call);

// The RunErrors of the failure paths; every message names the rank, the op,
// the group's global ranks and the seq.
RunError injectedFaultError(int rank, int64_t collectiveIndex, const CollectiveCall& call);
RunError cancelledError(int rank, const CollectiveCall& call);
RunError abortedError(int rank, int failedRank, const CollectiveCall& call);
// This rank's call differs from the one `firstRank` made as the same collective.
RunError mismatchError(int rank, const CollectiveCall& call, const std::string& signature,
                       int firstRank, const std::string& firstSignature);
RunError closedGroupError(int rank, const CollectiveCall& call);
// A failed transfer: a timeout when Gloo says so or when `elapsed` reached `timeout`.
RunError transferError(int rank, const CollectiveCall& call, const std::exception& cause,
                       std::chrono::milliseconds elapsed, std::chrono::milliseconds timeout);
// A rank body that threw something other than a RunError.
RunError bodyError(int rank, std::string_view what);

}  // namespace hsdp
