// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "buffer_layout/buffer_layout.h"
#include "steps/run_steps.h"
#include "traffic/traffic_stats.h"

namespace hsdp {

class TraceTimeline;
struct RunData;

// What the run views derive from a run's trace, derived once off the GUI
// thread with the run (as PlanIndex is for a plan), so that showing a run of
// thousands of collectives costs the GUI thread only the filling of its
// widgets: the causal steps (Steps, Traffic), the traffic figures, the fused-
// buffer collectives (Buffer layout) and the trace indexed for the canvas.
struct RunIndex {
    std::vector<RunStep> steps;
    TrafficStats traffic;
    std::vector<BufferCollective> buffers;  // pointing into the run's trace
    std::shared_ptr<const TraceTimeline> timeline;
};

// How many of the slowest collectives the traffic figures list.
inline constexpr int kSlowestCollectives = 12;

// Null for an invalid run.
std::shared_ptr<const RunIndex> indexRun(const RunData& run);

// The run's index as the session built it, or built here (a RunData made
// without one, as tests and the report writer make them).
std::shared_ptr<const RunIndex> runIndexOf(const RunData& run);

}  // namespace hsdp
