// SPDX-License-Identifier: Apache-2.0
#include "accuracy/step_replay.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "accuracy/trace_match.h"
#include "cost/step_simulation.h"

namespace hsdp {

std::string_view durationClassName(DurationClass c) {
    switch (c) {
        case DurationClass::Collectives:
            return "collectives";
        case DurationClass::NewtonSchulz:
            return "newton_schulz";
        case DurationClass::PackUnpack:
            return "pack_unpack";
        case DurationClass::Update:
            return "update";
        case DurationClass::RankOverhead:
            return "rank_overhead";
    }
    return "?";
}

double StepReplay::replayError() const {
    return measuredSeconds > 0 ? (replayedSeconds - measuredSeconds) / measuredSeconds : 0;
}

double StepReplay::carriedError(const ClassSubstitution& c) const {
    return measuredSeconds > 0 ? (c.makespanSeconds - replayedSeconds) / measuredSeconds : 0;
}

namespace {

DurationClass classOf(WorkKind kind) {
    switch (kind) {
        case WorkKind::Collective:
            return DurationClass::Collectives;
        case WorkKind::NewtonSchulz:
            return DurationClass::NewtonSchulz;
        case WorkKind::Pack:
        case WorkKind::Unpack:
            return DurationClass::PackUnpack;
        case WorkKind::Update:
            return DurationClass::Update;
    }
    return DurationClass::Collectives;
}

// Every duration of the step twice: as the run had it and as the model
// priced it, per collective and per rank and item.
struct Durations {
    std::vector<double> collectiveMeasured, collectiveModelled;
    ItemTimes measured, modelled;      // compute seconds and the gaps before items
    std::vector<double> tailMeasured;  // per rank: its step's end after its last item
};

// Each rank's item -> the trace event the run recorded for it (or none).
std::vector<std::vector<const TraceEvent*>> tracedItems(const StepSchedule& schedule,
                                                        const Trace& trace,
                                                        const ScheduleTraceMatch& collectives,
                                                        const ComputeTraceMatch& compute) {
    std::vector<std::vector<const TraceEvent*>> out(schedule.ranks.size());
    for (size_t r = 0; r < out.size(); ++r) out[r].assign(schedule.ranks[r].size(), nullptr);
    for (const auto& pair : collectives.pairs)
        out[size_t(pair.rank)][size_t(pair.work)] = &trace.events[pair.event];
    for (const auto& pair : compute.pairs)
        out[size_t(pair.rank)][size_t(pair.work)] = &trace.events[pair.event];
    return out;
}

// When each collective's last member arrived (µs on the trace's clock; -1:
// none traced it) and its measured time, from then to its last member's end
// (what predictRun compares); the model's where none traced it.
struct MeasuredCollectives {
    std::vector<double> lastStartUs;
    std::vector<double> seconds;
};

MeasuredCollectives measuredCollectives(const StepSchedule& schedule,
                                        const std::vector<std::vector<const TraceEvent*>>& traced,
                                        const std::vector<double>& modelled) {
    MeasuredCollectives out{std::vector<double>(schedule.collectives.size(), -1), modelled};
    std::vector<double> lastEnd(schedule.collectives.size(), -1);
    for (size_t r = 0; r < traced.size(); ++r)
        for (size_t at = 0; at < traced[r].size(); ++at) {
            const RankWork& work = schedule.ranks[r][at];
            const TraceEvent* e = traced[r][at];
            if (work.kind != WorkKind::Collective || !e) continue;
            const size_t c = size_t(work.collective);
            out.lastStartUs[c] = std::max(out.lastStartUs[c], e->startUs);
            lastEnd[c] = std::max(lastEnd[c], e->endUs);
        }
    for (size_t c = 0; c < out.seconds.size(); ++c)
        if (out.lastStartUs[c] >= 0)
            out.seconds[c] = std::max(0.0, lastEnd[c] - out.lastStartUs[c]) / 1e6;
    return out;
}

// The step's start on the trace's clock: the earliest rank's.
double stepOrigin(const std::vector<std::vector<const TraceEvent*>>& traced,
                  const std::vector<std::pair<double, double>>& rankStepUs) {
    double origin = std::numeric_limits<double>::infinity();
    for (size_t r = 0; r < traced.size(); ++r) {
        if (r < rankStepUs.size() && rankStepUs[r].second > 0)
            origin = std::min(origin, rankStepUs[r].first);
        else if (!traced[r].empty() && traced[r].front())
            origin = std::min(origin, traced[r].front()->startUs);
    }
    return std::isfinite(origin) ? origin : 0;
}

Durations durationsOf(const RunPrediction& prediction,
                      const std::vector<std::vector<const TraceEvent*>>& traced,
                      const std::vector<std::pair<double, double>>& rankStepUs) {
    constexpr double kModel = std::numeric_limits<double>::quiet_NaN();
    const StepSchedule& schedule = prediction.cost.schedule;
    const StepSimulation& sim = prediction.cost.simulation;
    Durations d;
    d.collectiveModelled = sim.collectiveSeconds;
    const MeasuredCollectives collectives =
        measuredCollectives(schedule, traced, d.collectiveModelled);
    d.collectiveMeasured = collectives.seconds;
    const size_t ranks = schedule.ranks.size();
    const double origin = stepOrigin(traced, rankStepUs);
    for (auto* times : {&d.measured, &d.modelled}) {
        times->seconds.resize(ranks);
        times->gapBefore.resize(ranks);
    }
    d.tailMeasured.assign(ranks, 0);
    for (size_t r = 0; r < ranks; ++r) {
        const size_t items = schedule.ranks[r].size();
        for (auto* times : {&d.measured, &d.modelled}) {
            times->seconds[r].assign(items, kModel);
            times->gapBefore[r].assign(items, 0);
        }
        const bool timed = r < rankStepUs.size() && rankStepUs[r].second > 0;
        double previousEnd = timed ? rankStepUs[r].first : origin;
        for (size_t at = 0; at < items; ++at) {
            const RankWork& work = schedule.ranks[r][at];
            const WorkSpan& span = sim.ranks[r].spans[at];
            const bool compute = work.kind != WorkKind::Collective;
            if (compute) d.modelled.seconds[r][at] = span.end - span.start;
            const TraceEvent* e = traced[r][at];
            if (!e) {
                if (compute) d.measured.seconds[r][at] = span.end - span.start;
                continue;
            }
            d.measured.gapBefore[r][at] = std::max(0.0, e->startUs - previousEnd) / 1e6;
            // A member's own end after the last arrival: a root that sends
            // and goes on does not wait for the last receiver to finish.
            d.measured.seconds[r][at] =
                compute ? std::max(0.0, e->endUs - e->startUs) / 1e6
                        : (e->endUs - collectives.lastStartUs[size_t(work.collective)]) / 1e6;
            previousEnd = std::max(previousEnd, e->endUs);
        }
        // The first gap counts from the step's start: a rank that began later waits for it.
        if (timed && items && traced[r].front())
            d.measured.gapBefore[r][0] = std::max(0.0, traced[r].front()->startUs - origin) / 1e6;
        if (timed) d.tailMeasured[r] = std::max(0.0, rankStepUs[r].second - previousEnd) / 1e6;
    }
    return d;
}

double makespanOf(const StepSchedule& schedule, const std::vector<double>& collectiveSeconds,
                  const ItemTimes& items, const std::vector<double>& tail) {
    const StepSimulation sim = simulateStep(schedule, collectiveSeconds, ComputeRates{}, items);
    double makespan = 0;
    for (size_t r = 0; r < sim.ranks.size(); ++r)
        makespan = std::max(makespan, sim.ranks[r].finish + (r < tail.size() ? tail[r] : 0));
    return makespan;
}

// The measured durations with class `c` replaced by the model's.
ClassSubstitution substitute(const StepSchedule& schedule, const Durations& d, DurationClass c) {
    ClassSubstitution out;
    out.durations = c;
    std::vector<double> collectives = d.collectiveMeasured;
    ItemTimes items = d.measured;
    std::vector<double> tail = d.tailMeasured;
    if (c == DurationClass::Collectives) {
        for (size_t i = 0; i < collectives.size(); ++i) {
            out.measuredSeconds += d.collectiveMeasured[i];
            out.modelledSeconds += d.collectiveModelled[i];
        }
        collectives = d.collectiveModelled;
    }
    for (size_t r = 0; r < schedule.ranks.size(); ++r) {
        for (size_t at = 0; at < schedule.ranks[r].size(); ++at) {
            if (c == DurationClass::RankOverhead) {
                out.measuredSeconds += items.gapBefore[r][at];
                items.gapBefore[r][at] = 0;
                continue;
            }
            const WorkKind kind = schedule.ranks[r][at].kind;
            if (classOf(kind) != c) continue;
            // A collective's member ends with the others again (NaN: the model's).
            items.seconds[r][at] = d.modelled.seconds[r][at];
            if (kind == WorkKind::Collective) continue;
            out.measuredSeconds += d.measured.seconds[r][at];
            out.modelledSeconds += d.modelled.seconds[r][at];
        }
        if (c == DurationClass::RankOverhead) {
            out.measuredSeconds += tail[r];
            tail[r] = 0;
        }
    }
    out.makespanSeconds = makespanOf(schedule, collectives, items, tail);
    return out;
}

}  // namespace

StepReplay replayStep(const RunPrediction& prediction, const Trace& trace,
                      const std::vector<std::pair<double, double>>& rankStepUs) {
    StepReplay out;
    out.measuredSeconds = prediction.measuredSeconds;
    out.modelledSeconds = prediction.predictedSeconds;
    const StepSchedule& schedule = prediction.cost.schedule;
    const ScheduleTraceMatch collectives = matchScheduleToTrace(schedule, trace);
    const ComputeTraceMatch compute = matchComputeToTrace(schedule, trace);
    out.mismatches = collectives.mismatches;
    out.mismatches.insert(out.mismatches.end(), compute.mismatches.begin(),
                          compute.mismatches.end());
    if (!out.mismatches.empty()) return out;
    const auto traced = tracedItems(schedule, trace, collectives, compute);
    const Durations d = durationsOf(prediction, traced, rankStepUs);
    out.replayedSeconds = makespanOf(schedule, d.collectiveMeasured, d.measured, d.tailMeasured);
    for (DurationClass c : kDurationClasses) out.classes.push_back(substitute(schedule, d, c));
    return out;
}

}  // namespace hsdp
