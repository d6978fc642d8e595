// SPDX-License-Identifier: Apache-2.0
#include "cost/detail/collective_arrivals.h"

namespace hsdp {

CollectiveArrivals::CollectiveArrivals(const StepSchedule& schedule)
    : members_(schedule.collectives.size()), lastArriver_(schedule.collectives.size(), -1) {
    for (size_t c = 0; c < schedule.collectives.size(); ++c)
        members_[c].reserve(schedule.groups[size_t(schedule.collectives[c].group)].size());
}

size_t CollectiveArrivals::positionOf(size_t c, int rank) const {
    for (const auto& [member, at] : members_[c])
        if (member == rank) return at;
    return 0;
}

namespace {

void totals(StepSimulation& sim) {
    sim.makespan = 0;
    for (size_t r = 0; r < sim.ranks.size(); ++r) {
        auto& t = sim.ranks[r];
        t.finish = t.spans.empty() ? 0 : t.spans.back().end;
        t.busy = t.waiting = 0;
        for (const auto& span : t.spans) {
            t.busy += span.end - span.start;
            t.waiting += span.start - span.arrival;
        }
        if (t.finish > sim.makespan || r == 0) {
            sim.makespan = t.finish;
            sim.lastRank = int(r);
        }
    }
}

std::vector<CriticalStep> criticalPath(const StepSchedule& schedule, const StepSimulation& sim,
                                       const CollectiveArrivals& arrivals) {
    std::vector<CriticalStep> path;
    int rank = sim.lastRank;
    long at = long(schedule.ranks[size_t(rank)].size()) - 1;
    while (at >= 0) {
        const RankWork& w = schedule.ranks[size_t(rank)][size_t(at)];
        if (w.kind == WorkKind::Collective) {
            const int last = arrivals.lastArriver(size_t(w.collective));
            if (last != rank) {
                rank = last;
                at = long(arrivals.positionOf(size_t(w.collective), last));
            }
        }
        path.push_back({rank, int(at)});
        --at;
    }
    return {path.rbegin(), path.rend()};
}

}  // namespace

void concludeSimulation(const StepSchedule& schedule, const CollectiveArrivals& arrivals,
                        StepSimulation& sim) {
    totals(sim);
    sim.criticalPath = criticalPath(schedule, sim, arrivals);
}

}  // namespace hsdp
