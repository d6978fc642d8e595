// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "job_check/recorded_collective.h"
#include "plan/plan.h"
#include "runtime/trace.h"
#include "types/scenario.h"

namespace hsdp {

// What a run's Flight Recorder dumps (export/flight_recorder_export) record
// so that they are what the plan's real job would record. A run on this
// machine is usually shrunk (run/shrink.h), and shrinking keeps the step's
// structure but one thing: a fused replica broadcast is cut in chunks of
// broadcast_max_bytes, and at the real shapes it makes more of them. So the
// dumps follow the schedule at the real shapes, collective by collective,
// each timed by the run: its traced collective is found by pairing the
// trace with the schedule at the run's shapes (as accuracy/trace_match
// does), then by what the collective is (op, group, phase, schedule entry,
// TP transition, mesh dim, root) and its occurrence on the rank; where the
// real step has n chunks for k run ones, each run chunk's time is shared
// evenly by its n/k real ones.

// A collective a rank had entered but not completed when a failed run stopped.
struct PendingCollective {
    TraceEvent event;  // rank, op, group, label and start (no end): where and when
    CollectiveBuffers buffers;
};

struct RunDump {
    // The real step's collectives each rank completed, in its order, timed
    // by the run (group ranks ascending, as the runtime's communicators).
    Trace trace;
    std::vector<std::optional<CollectiveBuffers>> buffers;  // per trace event
    // The collective each rank was in when a failed run stopped.
    std::vector<PendingCollective> pending;
    bool rechunked = false;  // the real step cuts some broadcast in more chunks
};

// `paramShapes`, `tpShapes`: the run's (RunResult's; empty: the real ones).
// `failed`, `failedRank`: whether the run failed, and the rank whose
// failure stopped it (RunResult::errorRank): every other rank that had not
// finished its step has its next collective pending; the failed rank never
// entered its own.
RunDump runDumpAtRealShapes(const Scenario& scenario, const Plan& plan, const Trace& trace,
                            const std::vector<std::vector<int64_t>>& paramShapes,
                            const std::vector<std::vector<int64_t>>& tpShapes, bool failed,
                            int failedRank);

}  // namespace hsdp
