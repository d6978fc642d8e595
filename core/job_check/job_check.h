// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "job_check/planned_step.h"
#include "job_record/job_record.h"

namespace hsdp {

// A real job's record held against the plan's optimizer step (hsdp-inspect
// check-job, docs/job-records.md "Checking a job against its plan"): each
// recorded process group is matched to the plan's group with the same member
// ranks, then each member's entries to its program in sequence order
// (job_check/member_alignment.h).

enum class DivergenceKind : uint8_t { Missing, Unexpected, Size, Dtype, Stuck, Order };
// "missing" | "unexpected" | "size" | "dtype" | "stuck" | "order"
std::string_view divergenceKindName(DivergenceKind kind);

struct JobDivergence {
    DivergenceKind kind = DivergenceKind::Missing;
    int64_t rank = 0;
    std::vector<int64_t> groupRanks;  // the process group's members
    std::string groupDesc;            // its recorded description ("mesh_dp"), or ""
    int64_t seqId = 0;                // collective_seq_id (Missing: the one the peers used)
    int64_t trainingStep = 1;         // which repetition of the step the seq id falls in
    // The plan's collective at that place (index into PlannedStep::schedule
    // .collectives); nullopt for Unexpected. Order: the one planned first.
    std::optional<int> expected;
    std::optional<int> expectedSecond;                    // Order: the one planned second
    const FlightRecorderEntry* recorded = nullptr;        // nullptr for Missing
    const FlightRecorderEntry* recordedSecond = nullptr;  // Order: recorded second
    // Stuck: the peers that completed it; Missing: the peers that recorded it.
    std::vector<int64_t> peers;
    int64_t timeNs = 0;  // when it happened, as the dumps' clocks say: orders the list
};

// A recorded entry the check placed at a planned collective: recorded as
// planned, with other sizes or another dtype, or swapped with its neighbour.
// What a recorded timeline draws, each entry as the plan's collective.
struct PlacedEntry {
    int64_t rank = 0;
    int collective = 0;        // index into PlannedStep::schedule.collectives
    int64_t trainingStep = 1;  // which repetition of the step
    const FlightRecorderEntry* entry = nullptr;
};

struct JobCheck {
    std::vector<int64_t> ranks;   // the ranks whose dumps were read
    int64_t recordWorldSize = 0;  // JobRecord::worldSize: 1 + the highest rank it names
    // Those of them checked on the dump their Kineto trace implies.
    std::vector<int64_t> ranksFromTrace;
    // Ranks below the world size without a dump: nothing is said of them.
    std::vector<int64_t> ranksWithoutDump;
    int64_t matched = 0;                     // entries recorded as planned (and not stuck)
    int64_t ignored = 0;                     // barriers of the world group: outside the step
    std::vector<JobDivergence> divergences;  // in the job's order (time)
    // The one to look at first: the earliest divergence that is not Stuck
    // (stuck ranks are what a missing or mismatched call leaves behind), else
    // the earliest Stuck; nullopt when there are none.
    std::optional<size_t> first;
    int64_t nowNs = 0;                // the newest time in the dumps: "now" for "ago"
    std::vector<PlacedEntry> placed;  // by group, member, then recording order
};

// The check of `job` against `step` (plannedStep of the scenario's real-shape schedule).
JobCheck checkJob(const PlannedStep& step, const Scenario& scenario, const Plan& plan,
                  const JobRecord& job);

}  // namespace hsdp
