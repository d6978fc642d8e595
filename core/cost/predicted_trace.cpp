// SPDX-License-Identifier: Apache-2.0
#include "cost/predicted_trace.h"

#include <algorithm>
#include <numeric>

#include "cost/collective_cost.h"

namespace hsdp {

namespace {

constexpr double kMicrosecondsPerSecond = 1e6;

}  // namespace

CollectiveLabel stepLabel(const Plan& plan, StepPhase phase, int index) {
    CollectiveLabel label;
    label.phase = std::string(stepPhaseName(phase));
    if (phase == StepPhase::Tp) {
        label.tpTransition = index;
        return label;
    }
    if (index < 0 || size_t(index) >= plan.schedule.size()) return label;
    const ScheduleEntry& entry = plan.schedule[size_t(index)];
    const Group& group = plan.groups[size_t(entry.group)];
    label.scheduleIndex = index;
    label.group = group.id;
    label.batch = entry.batch;
    label.mesh = group.mesh;
    label.params = group.batches[size_t(entry.batch)].params;
    return label;
}

TraceEvent collectiveEvent(const Plan& plan, const StepSchedule& schedule, int c, int rank) {
    const ScheduledCollective& collective = schedule.collectives[size_t(c)];
    TraceEvent event;
    event.rank = rank;
    event.label = stepLabel(
        plan, collective.phase,
        collective.phase == StepPhase::Tp ? collective.tpTransition : collective.scheduleIndex);
    event.seq = c;
    event.op = std::string(traceNameOf(collective.op));
    event.groupRanks = schedule.groups[size_t(collective.group)];
    event.bytes = schedule.traceBytes(collective, rank);
    if (collective.meshDim >= 0) event.label.meshDim = collective.meshDim;
    return event;
}

namespace {

TraceEvent eventOf(const Plan& plan, const StepSchedule& schedule, const RankWork& work, int rank,
                   int64_t& nextComputeSeq) {
    if (work.kind == WorkKind::Collective)
        return collectiveEvent(plan, schedule, work.collective, rank);
    TraceEvent event;
    event.rank = rank;
    event.label = stepLabel(plan, work.phase, work.scheduleIndex);
    // The one param a Newton–Schulz or an update works on, as the runner's
    // compute spans name it; packing names the batch's.
    if (work.param() >= 0) event.label.params = {work.param()};
    event.seq = nextComputeSeq--;
    event.op = std::string(workKindName(work.kind));
    event.groupRanks = {rank};
    return event;
}

}  // namespace

Trace predictedTrace(const Plan& plan, const PlanCost& cost, const std::vector<int>& ranks) {
    const StepSchedule& schedule = cost.schedule;
    Trace trace;
    int64_t nextComputeSeq = -1;  // as a recorded trace numbers its compute spans
    for (int r : ranks) {
        const std::vector<RankWork>& items = schedule.ranks.at(size_t(r));
        const std::vector<WorkSpan>& spans = cost.simulation.ranks.at(size_t(r)).spans;
        for (size_t i = 0; i < items.size(); ++i) {
            TraceEvent event = eventOf(plan, schedule, items[i], r, nextComputeSeq);
            event.startUs = spans[i].start * kMicrosecondsPerSecond;
            event.endUs = spans[i].end * kMicrosecondsPerSecond;
            trace.events.push_back(std::move(event));
        }
    }
    return trace;
}

Trace predictedTrace(const Plan& plan, const PlanCost& cost) {
    std::vector<int> all(cost.schedule.ranks.size());
    std::iota(all.begin(), all.end(), 0);
    return predictedTrace(plan, cost, all);
}

std::vector<int> predictedTraceRanks(const PlanCost& cost, int limit) {
    const int world = int(cost.schedule.ranks.size());
    std::vector<int> ranks;
    if (world <= limit || limit < 2) {
        ranks.resize(size_t(world));
        std::iota(ranks.begin(), ranks.end(), 0);
        return ranks;
    }
    for (int i = 0; i < limit - 1; ++i) ranks.push_back(int(int64_t(i) * world / (limit - 1)));
    ranks.push_back(cost.simulation.lastRank);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

}  // namespace hsdp
