// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "types/dtype.h"

namespace hsdp {

// One parameter's place inside a fused buffer (per rank slot), in bytes.
struct BufferSegment {
    int param = -1;
    int64_t offset = 0;   // bytes from the start of one rank's packed slot
    int64_t length = 0;   // real payload bytes
    int64_t padding = 0;  // alignment bytes after the payload
};

// What the algorithm says about a collective before it runs: the trace and
// error messages carry it.
struct CollectiveLabel {
    std::string phase;       // gather | update-broadcast | replica-broadcast | tp | ...
    int scheduleIndex = -1;  // position in the plan's schedule ("step" in traces)
    int group = -1;          // plan group id
    int batch = -1;          // batch index inside the group
    int tpTransition = -1;
    std::string mesh;
    int meshDim = -1;
    std::vector<int> params;
    std::vector<BufferSegment> segments;
    // all_to_all_v: the bytes this rank sends each member (group order; its own block included).
    std::vector<int64_t> peerBytes;
};

// One collective as one rank saw it, recorded when it completed (a failed
// collective leaves no event; the RunError names it instead).
//
// `bytes` is what this rank puts on the wire under the algorithm Gloo runs
// for the op (payload only, no headers), so summing over ranks gives the
// run's traffic:
//   all_gather      ring: bytesPerRank * (size - 1)
//   all_gather_v    ring: every block except the right neighbour's (rank + 1)
//   broadcast       binomial tree from the root: bytes * (number of children
//                   of this rank in the tree); the root sends ceil(log2 size)
//                   copies, leaves send nothing, all ranks together size - 1
//   all_reduce      ring estimate: 2 * (size - 1) / size * bytes (rounded down)
//   reduce_scatter  all-to-all of the blocks: blockBytes * (size - 1)
//   all_to_all      bytesPerRank * (size - 1)
//   all_to_all_v    the blocks this rank sends the others (its own stays)
//   barrier         0
// A group of size 1 (or a zero-byte collective) moves nothing: bytes 0.
//
// A compute span between collectives (what the cost model's schedule calls
// pack, unpack, newton_schulz and update) is an event too, so the trace shows
// where the time between collectives went: op is the work kind's name,
// groupRanks {rank}, bytes 0, the label that of the entry's collectives with
// the params it worked on, and a negative seq (-1, -2, ... in recording
// order) that no collective has. isCompute() tells them apart; whatever counts
// or matches collectives skips them.
struct TraceEvent {
    int64_t seq = 0;  // global id, identical on every participant of the collective
    int rank = 0;
    std::string op;  // all_gather | broadcast | all_reduce | reduce_scatter | all_to_all | ...
                     // or, compute, pack | unpack | newton_schulz | update
    std::vector<int> groupRanks;
    int64_t bytes = 0;  // payload bytes this rank sent
    // The buffers this rank handed the collective, as a process group's
    // recorder sees them (export/flight_recorder_export): its input's and its
    // output's bytes (in place: the same), and a reduction's element type
    // (nullopt: bytes moved as they are). 0 for compute spans.
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    std::optional<DType> dtype;
    double startUs = 0;  // microseconds since the run started
    double endUs = 0;
    CollectiveLabel label;
};

// Whether `op` names a compute span ("pack" | "unpack" | "newton_schulz" | "update").
bool isComputeOp(std::string_view op);
// Whether the event is a compute span rather than a collective.
bool isCompute(const TraceEvent& event);

struct Trace {
    std::vector<TraceEvent> events;  // ordered by (rank, start)
};

// Gives the collectives the ids 0, 1, ... in program order, so that every run
// of a plan numbers them alike whichever rank reached a collective first: a
// collective's place is the earliest position any member gives it among its
// own collectives, ties going to the lower rank. Compute spans keep their
// seqs. Returns each old seq's new id.
std::map<int64_t, int64_t> numberInProgramOrder(std::vector<TraceEvent>& events);

// Run totals over every recorded collective event (all ranks; compute spans
// are not counted).
struct TraceTotals {
    int64_t collectives = 0;  // distinct seqs: each collective once, across its group
    int64_t rankEvents = 0;   // events: one per participating rank of each collective
    int64_t bytes = 0;        // sum of TraceEvent::bytes
};

// Thread-safe collector shared by all rank threads of one run.
class TraceRecorder {
public:
    // The global id of the `groupSeq`-th collective on the process group named
    // `groupKey`: the first participant to ask assigns it, the others get the same.
    int64_t globalSeq(const std::string& groupKey, int64_t groupSeq);
    // A compute event (isCompute) gets its negative seq here and stays out of the totals.
    void record(TraceEvent event);
    // The events sorted by (rank, start), their collectives numbered in program
    // order (numberInProgramOrder); clears the events, not the totals.
    Trace take();
    TraceTotals totals() const;  // everything recorded since construction

private:
    mutable std::mutex mutex_;
    TraceTotals totals_;
    std::map<std::pair<std::string, int64_t>, int64_t> seqs_;
    std::unordered_set<int64_t> recorded_;  // the seqs with an event
    int64_t nextSeq_ = 0;
    int64_t computeEvents_ = 0;
    std::vector<TraceEvent> events_;
};

}  // namespace hsdp
