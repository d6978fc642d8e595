// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/trace.h"

namespace hsdp {

// One step of the step-by-step view: one collective (one seq) with every
// participant's event.
struct RunStep {
    int64_t seq = 0;
    // The collective's number on its process group (its member ranks), from
    // 1: "broadcast #3 of group [2,3]", as a run's errors, Flight Recorder
    // (collective_seq_id) and check-job name it. `seq` is run-wide and
    // depends on how the ranks interleaved.
    int64_t groupSeq = 0;
    std::vector<int> events;  // indices into the trace, by participant rank
    std::vector<int> ranks;   // the participants that recorded it, ascending
    double firstStartUs = 0;  // the first participant arrived
    double readyUs = 0;       // the last participant arrived: the collective can run
    double endUs = 0;         // the last participant finished

    // The collective's own time: from the last arrival to the last finish.
    // Waiting for late members is not the collective's work.
    double runUs() const { return endUs - readyUs; }
    double waitUs() const { return readyUs - firstStartUs; }
};

// The collectives of a trace in the order they could run: by the time the
// last participant arrived (a collective starts when every member is there),
// ties by seq. Seq order is the order in which the FIRST participant asked
// for an id: a receiver that idles early (a replica waiting for its owner's
// broadcast) takes an id before the update it waits for, so seq order would
// tell the lesson out of causal order; arrival-of-the-last order does not.
std::vector<RunStep> runSteps(const Trace& trace);

// "broadcast #3 of group [2,3]": the step's op and its number on its group.
std::string collectiveName(const RunStep& step, const Trace& trace);
// The event's process group, its ranks ascending (its key, as the runtime's).
std::vector<int> sortedGroupRanks(const TraceEvent& event);

// The position of collective `seq` in `steps`, or -1.
int stepOfSeq(const std::vector<RunStep>& steps, int64_t seq);

}  // namespace hsdp
