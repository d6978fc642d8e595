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

// A collective's measured time: its last member's arrival to its last
// member's end (what predictRun compares); the model's where none traced it.
std::vector<double> measuredCollectives(const StepSchedule& schedule,
                                        const std::vector<std::vector<const TraceEvent*>>& traced,
                                        const std::vector<double>& modelled) {
    std::vector<double> lastStart(schedule.collectives.size(), -1), lastEnd(lastStart);
    for (size_t r = 0; r < traced.size(); ++r)
        for (size_t at = 0; at < traced[r].size(); ++at) {
            const RankWork& work = schedule.ranks[r][at];
            const TraceEvent* e = traced[r][at];
            if (work.kind != WorkKind::Collective || !e) continue;
            const size_t c = size_t(work.collective);
            lastStart[c] = std::max(lastStart[c], e->startUs);
            lastEnd[c] = std::max(lastEnd[c], e->endUs);
        }
    std::vector<double> out(modelled);
    for (size_t c = 0; c < out.size(); ++c)
        if (lastStart[c] >= 0) out[c] = std::max(0.0, lastEnd[c] - lastStart[c]) / 1e6;
    return out;
}

Durations durationsOf(const RunPrediction& prediction, const Trace& trace,
                      const std::vector<std::vector<const TraceEvent*>>& traced,
                      const std::vector<std::pair<double, double>>& rankStepUs) {
    const StepSchedule& schedule = prediction.cost.schedule;
    const StepSimulation& sim = prediction.cost.simulation;
    Durations d;
    d.collectiveModelled = sim.collectiveSeconds;
    d.collectiveMeasured = measuredCollectives(schedule, traced, d.collectiveModelled);
    const size_t ranks = schedule.ranks.size();
    double origin =
        std::numeric_limits<double>::infinity();  // the step's start on the trace's clock
    for (size_t r = 0; r < ranks; ++r) {
        const bool timed = r < rankStepUs.size() && rankStepUs[r].second > 0;
        if (timed)
            origin = std::min(origin, rankStepUs[r].first);
        else if (!traced[r].empty() && traced[r].front())
            origin = std::min(origin, traced[r].front()->startUs);
    }
    if (!std::isfinite(origin)) origin = 0;
    for (auto* times : {&d.measured, &d.modelled}) {
        times->computeSeconds.resize(ranks);
        times->gapBefore.resize(ranks);
    }
    d.tailMeasured.assign(ranks, 0);
    for (size_t r = 0; r < ranks; ++r) {
        const size_t items = schedule.ranks[r].size();
        d.measured.computeSeconds[r].assign(items, -1);
        d.measured.gapBefore[r].assign(items, 0);
        d.modelled.computeSeconds[r].assign(items, -1);
        d.modelled.gapBefore[r].assign(items, 0);
        const bool timed = r < rankStepUs.size() && rankStepUs[r].second > 0;
        double previousEnd = timed ? rankStepUs[r].first : origin;
        for (size_t at = 0; at < items; ++at) {
            const WorkSpan& span = sim.ranks[r].spans[at];
            const bool compute = schedule.ranks[r][at].kind != WorkKind::Collective;
            if (compute) d.modelled.computeSeconds[r][at] = span.end - span.start;
            const TraceEvent* e = traced[r][at];
            if (!e) {
                if (compute) d.measured.computeSeconds[r][at] = span.end - span.start;
                continue;
            }
            d.measured.gapBefore[r][at] = std::max(0.0, e->startUs - previousEnd) / 1e6;
            if (compute)
                d.measured.computeSeconds[r][at] = std::max(0.0, e->endUs - e->startUs) / 1e6;
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
            if (kind == WorkKind::Collective || classOf(kind) != c) continue;
            out.measuredSeconds += d.measured.computeSeconds[r][at];
            out.modelledSeconds += d.modelled.computeSeconds[r][at];
            items.computeSeconds[r][at] = d.modelled.computeSeconds[r][at];
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
    const Durations d = durationsOf(prediction, trace, traced, rankStepUs);
    out.replayedSeconds = makespanOf(schedule, d.collectiveMeasured, d.measured, d.tailMeasured);
    for (DurationClass c : kDurationClasses) out.classes.push_back(substitute(schedule, d, c));
    return out;
}

}  // namespace hsdp
