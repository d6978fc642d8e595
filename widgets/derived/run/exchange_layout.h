// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "derived/run/run_data.h"
#include "runtime/trace.h"

namespace hsdp {

// One member's block of an alltoallv buffer: what this rank sends it (send
// buffer) or gets from it (receive buffer), params in batch order inside.
struct PeerBlock {
    int rank = -1;                        // the peer
    int64_t offset = 0;                   // bytes from the start of the buffer
    int64_t bytes = 0;                    // 0: nothing to or from that peer
    std::vector<BufferSegment> segments;  // offsets from the start of the buffer
};

// An all_to_all_v of the all-to-all gather strategy as one rank sees it: its
// send and receive buffers, one block per member of the flattened shard
// group (group order, its own block included: it stays on the rank).
struct ExchangeLayout {
    std::vector<PeerBlock> send, recv;
    // Whether the send side is the rank's own trace event (segments and peer
    // bytes as recorded) rather than the geometry (a rank that sent nothing,
    // a saved run without peer bytes).
    bool sendFromTrace = false;

    int64_t sendBytes() const;
    int64_t recvBytes() const;
};

// The exchange's geometry for `rank` (collectives/owner_exchange.h, the
// runner's): which member holds which piece of which param at the run's
// shapes, so the receive side is laid out exactly as the runner lays it out.
// nullopt when the event is no all_to_all_v of a gathered batch of the plan.
std::optional<ExchangeLayout> exchangeLayout(const RunData& data, const TraceEvent& event,
                                             const TraceEvent* mine, int rank);

}  // namespace hsdp
