// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "job_check/job_check.h"
#include "plan/plan.h"
#include "runtime/trace.h"

namespace hsdp {

// The phase of a recorded collective that never completed (drawn open to
// the record's end): its own colour, not the phase it hung in.
inline constexpr const char* kNeverCompletedPhase = "never completed";

// A job's record as a trace, to lay beside the plan's predicted step
// (docs/job-records.md, "The recorded timeline"): every entry the check
// placed at a planned collective and timed (a duration: Flight Recorder with
// timing on) is an event of the plan's collective on its rank, with the
// plan's label, op, group and wire bytes, and the params it carries
// (carriedParams: a broadcast's, those its root computed), as a run's trace
// labels it. It starts when the rank enqueued
// it (time_created_ns, the host's clock) and lasts its measured (GPU)
// duration: a collective queued behind earlier GPU work ran later than
// drawn, never shorter. Times are microseconds since the earliest drawn
// entry; the same collective in the next training step takes the seq
// c + collectives, so each step's members stay linked.
struct RecordedTimeline {
    Trace trace;            // ordered by (rank, start)
    int64_t timed = 0;      // placed entries with a duration, on every rank
    int64_t untimed = 0;    // completed placed entries without a duration: not drawn
    int64_t open = 0;       // never completed (a hang): drawn to the record's newest time
    int64_t firstStep = 0;  // the training steps timed (0: none)
    int64_t lastStep = 0;
    double spanSeconds = 0;  // from the earliest start to the latest end drawn
    int64_t ranksDrawn = 0;  // of the ranks with a timed entry (at most maxRanks)
};

// A placed entry that never completed (a hang's) is drawn from its enqueue
// to the newest time of the dumps, open-ended. Only `maxRanks` of the ranks
// with a drawn entry are drawn (evenly spaced,
// the first and the last among them); `timed` counts every rank's.
RecordedTimeline recordedTimeline(const Scenario& scenario, const Plan& plan,
                                  const PlannedStep& step, const JobCheck& check,
                                  size_t maxRanks = SIZE_MAX);

}  // namespace hsdp
