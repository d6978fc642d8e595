// SPDX-License-Identifier: Apache-2.0
#include "job_check/recorded_timeline.h"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>
#include <unordered_map>

#include "cost/predicted_trace.h"

namespace hsdp {

namespace {

// At most `limit` of the ranks with a timed entry: evenly spaced, the first
// and the last among them (a record of thousands of ranks would copy every
// event's group and params, as predictedTrace avoids).
// Drawn: timed, or never completed (a hang's collectives, open to the end).
bool drawn(const FlightRecorderEntry& entry) {
    return entry.durationMs || entry.state != CollectiveState::Completed;
}

std::set<int64_t> drawnRanks(const JobCheck& check, size_t limit) {
    std::set<int64_t> timed;
    for (const PlacedEntry& placed : check.placed)
        if (drawn(*placed.entry)) timed.insert(placed.rank);
    if (timed.size() <= limit || limit < 2) return timed;
    const std::vector<int64_t> all(timed.begin(), timed.end());
    std::set<int64_t> kept;
    for (size_t i = 0; i < limit; ++i) kept.insert(all[i * (all.size() - 1) / (limit - 1)]);
    return kept;
}

}  // namespace

RecordedTimeline recordedTimeline(const Scenario& scenario, const Plan& plan,
                                  const PlannedStep& step, const JobCheck& check, size_t maxRanks) {
    RecordedTimeline out;
    const std::set<int64_t> ranks = drawnRanks(check, maxRanks);
    out.ranksDrawn = int64_t(ranks.size());
    int64_t t0 = std::numeric_limits<int64_t>::max();
    for (const PlacedEntry& placed : check.placed)
        if (drawn(*placed.entry)) t0 = std::min(t0, placed.entry->timeCreatedNs);
    const int64_t collectives = int64_t(step.schedule.collectives.size());
    std::unordered_map<int, std::vector<int>> carried;  // per collective, computed once
    double end = 0, lastStart = 0;                      // microseconds since t0
    std::vector<size_t> openEvents;
    for (const PlacedEntry& placed : check.placed) {
        const FlightRecorderEntry& entry = *placed.entry;
        if (!drawn(entry)) {
            ++out.untimed;
            continue;
        }
        entry.durationMs ? ++out.timed : ++out.open;
        out.firstStep = out.timed + out.open > 1 ? std::min(out.firstStep, placed.trainingStep)
                                                 : placed.trainingStep;
        out.lastStep = std::max(out.lastStep, placed.trainingStep);
        if (!ranks.count(placed.rank)) continue;
        TraceEvent event =
            collectiveEvent(plan, step.schedule, placed.collective, int(placed.rank));
        auto [params, added] = carried.try_emplace(placed.collective);
        if (added) params->second = carriedParams(scenario, plan, step.schedule, placed.collective);
        event.label.params = params->second;
        event.seq += (placed.trainingStep - 1) * collectives;
        event.startUs = double(entry.timeCreatedNs - t0) / 1e3;
        event.endUs = entry.durationMs ? event.startUs + *entry.durationMs * 1e3 : event.startUs;
        end = std::max(end, event.endUs);
        lastStart = std::max(lastStart, event.startUs);
        if (!entry.durationMs) openEvents.push_back(out.trace.events.size());
        out.trace.events.push_back(std::move(event));
    }
    // Never completed: open to the record's end, the dumps' newest time or
    // the last timed end, whichever is later (all of them end together).
    end = std::max(end, double(check.nowNs - t0) / 1e3);
    // One enqueued at that very time would have no width, and its rank read
    // as healthy: the open end is drawn 2 % of the span past the last start.
    if (!openEvents.empty()) end = std::max(end, lastStart + 0.02 * std::max(end, 1.0));
    // Their phase says so: drawn in the phase's colour they looked finished,
    // and a rank's finished collective and its hung one read as one bar.
    for (size_t i : openEvents) {
        out.trace.events[i].endUs = end;
        out.trace.events[i].label.phase = kNeverCompletedPhase;
    }
    std::sort(out.trace.events.begin(), out.trace.events.end(),
              [](const TraceEvent& a, const TraceEvent& b) {
                  return std::tie(a.rank, a.startUs, a.seq) < std::tie(b.rank, b.startUs, b.seq);
              });
    out.spanSeconds = end / 1e6;
    return out;
}

}  // namespace hsdp
