// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "cluster/cluster.h"
#include "derived/run/buffer_layout.h"
#include "derived/run/run_data.h"
#include "derived/run/run_steps.h"
#include "derived/run/step_faults.h"
#include "derived/run/traffic_stats.h"

namespace hsdp {

class TraceTimeline;

// What the run views derive from a run's trace, derived once off the GUI
// thread with the run (as PlanIndex is for a plan), so that showing a run of
// thousands of collectives costs the GUI thread only the filling of its
// widgets: the causal steps (Steps, Traffic), what verification found wrong
// in them (Steps, Trace), the traffic figures, the fused-buffer collectives
// (Buffer layout) and the trace indexed for the canvas.
struct RunIndex {
    std::vector<RunStep> steps;
    StepFaults faults;  // by collective id: the steps whose result verification found wrong
    TrafficStats traffic;
    std::vector<BufferCollective> buffers;  // pointing into the run's trace
    std::shared_ptr<const TraceTimeline> timeline;
};

// How many of the slowest collectives the traffic figures list.
inline constexpr int kSlowestCollectives = 12;

// An invalid run's index is empty (shared by all of them).
std::shared_ptr<const RunIndex> indexRun(const RunData& run);

// The run's index as it was built with it, or built here (a RunData a test
// made by hand); never null.
std::shared_ptr<const RunIndex> runIndexOf(const RunData& run);

// A finished run as the views take it: its trace indexed and, with a
// cluster, held against its prediction (prediction/plan_prediction.h). Off
// the GUI thread: the run session's jobs and the report writer make them.
RunData preparedRun(const PlanResult& plan, std::shared_ptr<const RunResult> run,
                    std::shared_ptr<const Cluster> cluster, const QString& source = {});

}  // namespace hsdp
