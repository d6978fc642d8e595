// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace hsdp::bench {

// The run views' GUI-thread costs (hsdp-bench views):
// trace_paint_overview_ms / trace_paint_zoomed_ms: one paint of the trace
// timeline into a 1600 x 1000 QImage, a synthetic 100,000-event trace (50
// ranks) fitted whole, then zoomed to 1/200 of the run; step_change_ms: one
// step of the step panel until the step panel, the trace view and a mesh view
// (one selection) have repainted, over a real run of `runScenario`. Medians.
struct TraceBenchFigures {
    double paintOverviewMs = 0;
    double paintZoomedMs = 0;
    double stepChangeMs = 0;
    int steps = 0;  // collectives of the run the step change walks
};

// An empty `runScenario`: the paint figures only.
TraceBenchFigures traceBenchmark(const QString& runScenario, int rounds);

}  // namespace hsdp::bench
