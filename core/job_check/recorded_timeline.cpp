// SPDX-License-Identifier: Apache-2.0
#include "job_check/recorded_timeline.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "cost/predicted_trace.h"

namespace hsdp {

RecordedTimeline recordedTimeline(const Scenario& scenario, const Plan& plan,
                                  const PlannedStep& step, const JobCheck& check) {
    RecordedTimeline out;
    int64_t t0 = std::numeric_limits<int64_t>::max();
    for (const PlacedEntry& placed : check.placed)
        if (placed.entry->durationMs) t0 = std::min(t0, placed.entry->timeCreatedNs);
    const int64_t collectives = int64_t(step.schedule.collectives.size());
    double end = 0;
    for (const PlacedEntry& placed : check.placed) {
        const FlightRecorderEntry& entry = *placed.entry;
        if (!entry.durationMs) {
            ++out.untimed;
            continue;
        }
        TraceEvent event =
            collectiveEvent(plan, step.schedule, placed.collective, int(placed.rank));
        event.label.params = carriedParams(scenario, plan, step.schedule, placed.collective);
        event.seq += (placed.trainingStep - 1) * collectives;
        event.startUs = double(entry.timeCreatedNs - t0) / 1e3;
        event.endUs = event.startUs + *entry.durationMs * 1e3;
        end = std::max(end, event.endUs);
        out.trace.events.push_back(std::move(event));
        out.firstStep =
            out.timed ? std::min(out.firstStep, placed.trainingStep) : placed.trainingStep;
        out.lastStep = std::max(out.lastStep, placed.trainingStep);
        ++out.timed;
    }
    std::sort(out.trace.events.begin(), out.trace.events.end(),
              [](const TraceEvent& a, const TraceEvent& b) {
                  return std::tie(a.rank, a.startUs, a.seq) < std::tie(b.rank, b.startUs, b.seq);
              });
    out.spanSeconds = end / 1e6;
    return out;
}

}  // namespace hsdp
