// SPDX-License-Identifier: Apache-2.0
#include "accuracy/trace_match.h"

#include <algorithm>

namespace hsdp {

namespace {

std::string describe(std::string_view op, std::string_view phase, int step, int tp, int dim,
                     const std::vector<int>& ranks, int64_t bytes) {
    std::string out = std::string(op) + " " + std::string(phase) + " step " + std::to_string(step) +
                      " tp " + std::to_string(tp) + " dim " + std::to_string(dim) + " [";
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? "," : "") + std::to_string(ranks[i]);
    return out + "] " + std::to_string(bytes) + " B";
}

}  // namespace

std::string describeScheduled(const StepSchedule& s, const ScheduledCollective& c, int rank) {
    const bool tp = c.phase == StepPhase::Tp;
    return describe(traceNameOf(c.op), stepPhaseName(c.phase), tp ? -1 : c.scheduleIndex,
                    c.tpTransition, c.meshDim, s.groups[size_t(c.group)], s.traceBytes(c, rank));
}

std::string describeTraced(const TraceEvent& e) {
    return describe(e.op, e.label.phase, e.label.scheduleIndex, e.label.tpTransition,
                    e.label.meshDim, e.groupRanks, e.bytes);
}

namespace {

// Each rank's events that `keep` keeps, in start order.
template <class Keep>
std::vector<std::vector<size_t>> eventsByRank(const Trace& trace, size_t world, Keep keep) {
    std::vector<std::vector<size_t>> byRank(world);
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const int r = trace.events[i].rank;
        if (keep(trace.events[i]) && r >= 0 && size_t(r) < world) byRank[size_t(r)].push_back(i);
    }
    for (auto& events : byRank)  // Trace::events is in (rank, start) order; keep it so
        std::stable_sort(events.begin(), events.end(), [&](size_t a, size_t b) {
            return trace.events[a].startUs < trace.events[b].startUs;
        });
    return byRank;
}

std::string describeCompute(std::string_view kind, std::string_view phase, int step) {
    return std::string(kind) + " " + std::string(phase) + " step " + std::to_string(step);
}

}  // namespace

ComputeTraceMatch matchComputeToTrace(const StepSchedule& schedule, const Trace& trace) {
    ComputeTraceMatch out;
    const size_t world = schedule.ranks.size();
    const auto byRank =
        eventsByRank(trace, world, [](const TraceEvent& e) { return isCompute(e); });
    for (size_t r = 0; r < world; ++r) {
        std::vector<int> works;
        for (size_t w = 0; w < schedule.ranks[r].size(); ++w)
            if (schedule.ranks[r][w].kind != WorkKind::Collective) works.push_back(int(w));
        const auto& events = byRank[r];
        const size_t common = std::min(works.size(), events.size());
        bool agreed = true;
        for (size_t i = 0; i < common && agreed; ++i) {
            const RankWork& work = schedule.ranks[r][size_t(works[i])];
            const std::string predicted = describeCompute(
                workKindName(work.kind), stepPhaseName(work.phase), work.scheduleIndex);
            const TraceEvent& e = trace.events[events[i]];
            const std::string ran = describeCompute(e.op, e.label.phase, e.label.scheduleIndex);
            agreed = predicted == ran;
            if (agreed)
                out.pairs.push_back({int(r), works[i], events[i]});
            else
                out.mismatches.push_back("rank " + std::to_string(r) + ", compute " +
                                         std::to_string(i) + ": predicted " + predicted + ", ran " +
                                         ran);
        }
        if (agreed && works.size() != events.size())
            out.mismatches.push_back("rank " + std::to_string(r) + ": predicted " +
                                     std::to_string(works.size()) + " compute spans, ran " +
                                     std::to_string(events.size()));
    }
    return out;
}

ScheduleTraceMatch matchScheduleToTrace(const StepSchedule& schedule, const Trace& trace) {
    ScheduleTraceMatch out;
    const size_t world = schedule.ranks.size();
    const auto byRank =
        eventsByRank(trace, world, [](const TraceEvent& e) { return !isCompute(e); });
    for (size_t r = 0; r < world; ++r) {
        std::vector<int> works;
        for (size_t w = 0; w < schedule.ranks[r].size(); ++w)
            if (schedule.ranks[r][w].kind == WorkKind::Collective) works.push_back(int(w));
        const auto& events = byRank[r];
        const size_t common = std::min(works.size(), events.size());
        bool agreed = true;
        for (size_t i = 0; i < common && agreed; ++i) {
            const int c = schedule.ranks[r][size_t(works[i])].collective;
            const std::string predicted =
                describeScheduled(schedule, schedule.collectives[size_t(c)], int(r));
            const std::string ran = describeTraced(trace.events[events[i]]);
            if (predicted != ran) {
                out.mismatches.push_back("rank " + std::to_string(r) + ", collective " +
                                         std::to_string(i) + ": predicted " + predicted + ", ran " +
                                         ran);
                agreed = false;
            } else {
                out.pairs.push_back({int(r), works[i], c, events[i]});
            }
        }
        if (agreed && works.size() != events.size())
            out.mismatches.push_back("rank " + std::to_string(r) + ": predicted " +
                                     std::to_string(works.size()) + " collectives, ran " +
                                     std::to_string(events.size()));
    }
    return out;
}

}  // namespace hsdp
