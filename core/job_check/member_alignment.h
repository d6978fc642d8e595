// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "job_check/recorded_collective.h"
#include "job_record/flight_recorder_dump.h"

namespace hsdp {

// One member's recorded entries of one process group held against its
// program, the group's collectives in plan order. The program repeats once
// per training step: position j (0-based, across steps) is program[j mod L]
// and its collective_seq_id is j + 1. The entries are aligned by order, not
// by their seq ids, because a recorder numbers what the rank really called:
// a rank that skipped a collective numbers its next one as the skipped one.

enum class AlignKind : uint8_t {
    Match,       // the planned collective, recorded as planned
    Size,        // the planned op, other sizes
    Dtype,       // the planned op and sizes, another dtype
    Missing,     // position j has no entry: the rank went on without it
    Unexpected,  // an entry the program has no place for
    Order,       // entry and next are positions j+1 and j: swapped
};

struct AlignedItem {
    AlignKind kind = AlignKind::Match;
    int64_t position = -1;                        // j; -1 for Unexpected
    const FlightRecorderEntry* entry = nullptr;   // nullptr for Missing
    const FlightRecorderEntry* second = nullptr;  // Order: the entry recorded second
};

// `planned(position)`: how position j is recorded. `entries`: in recording order.
std::vector<AlignedItem> alignMember(const std::vector<const FlightRecorderEntry*>& entries,
                                     int64_t programLength,
                                     const std::function<RecordedForm(int64_t)>& planned);

// An entry's form, to compare with the planned one.
RecordedForm formOf(const FlightRecorderEntry& entry);

}  // namespace hsdp
