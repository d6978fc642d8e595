// SPDX-License-Identifier: Apache-2.0
#include "cost/step_simulation.h"

#include <stdexcept>
#include <string>

namespace hsdp {

ComputeRates computeRatesOf(const Cluster& cluster) {
    const DeviceSpec& device = cluster.device;
    return {device.peakFlops.float32 * device.efficiency,
            device.memoryBandwidthBytesPerSecond * device.efficiency};
}

double workSeconds(const RankWork& work, const ComputeRates& rates) {
    switch (work.kind) {
        case WorkKind::Collective:
            return 0;
        case WorkKind::NewtonSchulz:
            return rates.flopsPerSecond > 0 ? work.amount / rates.flopsPerSecond : 0;
        case WorkKind::Pack:
        case WorkKind::Unpack:
        case WorkKind::Update:
            return rates.bytesPerSecond > 0 ? work.amount / rates.bytesPerSecond : 0;
    }
    return 0;
}

std::vector<double> collectiveSecondsOn(const StepSchedule& schedule, const Cluster& cluster) {
    std::vector<double> seconds;
    seconds.reserve(schedule.collectives.size());
    for (const auto& c : schedule.collectives)
        seconds.push_back(
            collectiveSeconds(c.op, c.sizeBytes, schedule.groups[size_t(c.group)], cluster));
    return seconds;
}

namespace {

// Runs every rank as far as it can; a collective completes when its last
// member arrives, which frees the members blocked on it.
class EventPass {
public:
    EventPass(const StepSchedule& schedule, StepSimulation& sim, const ComputeRates& rates)
        : schedule_(schedule), sim_(sim), rates_(rates) {
        const size_t n = schedule.ranks.size();
        sim.ranks.resize(n);
        for (size_t r = 0; r < n; ++r) sim.ranks[r].spans.resize(schedule.ranks[r].size());
        pos_.assign(n, 0);
        clock_.assign(n, 0);
        arrived_.assign(schedule.collectives.size(), 0);
        sim.collectiveStart.assign(schedule.collectives.size(), 0);
        lastArriver_.assign(schedule.collectives.size(), -1);
        blockedAt_.resize(schedule.collectives.size());
    }

    void run() {
        for (int r = 0; r < int(schedule_.ranks.size()); ++r) ready_.push_back(r);
        while (!ready_.empty()) {
            const int r = ready_.back();
            ready_.pop_back();
            advance(r);
        }
        for (size_t r = 0; r < schedule_.ranks.size(); ++r)
            if (pos_[r] < schedule_.ranks[r].size())
                throw std::logic_error("the step cannot complete: rank " + std::to_string(r) +
                                       " waits forever at item " + std::to_string(pos_[r]));
    }

    int lastArriver(int collective) const { return lastArriver_[size_t(collective)]; }
    size_t positionOf(int collective, int rank) const {
        for (const auto& [member, at] : blockedAt_[size_t(collective)])
            if (member == rank) return at;
        return 0;
    }

private:
    void advance(int r) {
        const auto& work = schedule_.ranks[size_t(r)];
        auto& timeline = sim_.ranks[size_t(r)];
        while (pos_[size_t(r)] < work.size()) {
            const size_t at = pos_[size_t(r)];
            const RankWork& w = work[at];
            WorkSpan& span = timeline.spans[at];
            span.arrival = clock_[size_t(r)];
            if (w.kind != WorkKind::Collective) {
                span.start = span.arrival;
                span.end = span.start + workSeconds(w, rates_);
                clock_[size_t(r)] = span.end;
                ++pos_[size_t(r)];
                continue;
            }
            const size_t c = size_t(w.collective);
            blockedAt_[c].push_back({r, at});
            if (arrived_[c] == 0 || span.arrival >= sim_.collectiveStart[c]) {
                sim_.collectiveStart[c] = span.arrival;
                lastArriver_[c] = r;
            }
            const size_t members = schedule_.groups[size_t(schedule_.collectives[c].group)].size();
            if (++arrived_[c] < int(members)) return;  // blocked until the last member
            complete(c);
            // complete() moved r past the collective and queued the others
        }
    }

    void complete(size_t c) {
        const double start = sim_.collectiveStart[c];
        const double end = start + sim_.collectiveSeconds[c];
        for (const auto& [member, at] : blockedAt_[c]) {
            WorkSpan& span = sim_.ranks[size_t(member)].spans[at];
            span.start = start;
            span.end = end;
            clock_[size_t(member)] = end;
            pos_[size_t(member)] = at + 1;
            // The member whose advance() completed `c` (the last one listed)
            // goes on in its own loop; the others are queued.
            if (member != blockedAt_[c].back().first) ready_.push_back(member);
        }
    }

    const StepSchedule& schedule_;
    StepSimulation& sim_;
    const ComputeRates& rates_;
    std::vector<size_t> pos_;
    std::vector<double> clock_;
    std::vector<int> arrived_;
    std::vector<int> lastArriver_;
    std::vector<std::vector<std::pair<int, size_t>>> blockedAt_;  // [collective]: (rank, item)
    std::vector<int> ready_;
};

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

// From the last item of the rank that ends last, back to the start: a
// compute item follows its rank's previous item, a collective the member
// that arrived last.
std::vector<CriticalStep> criticalPath(const StepSchedule& schedule, const StepSimulation& sim,
                                       const EventPass& pass) {
    std::vector<CriticalStep> path;
    int rank = sim.lastRank;
    long at = long(schedule.ranks[size_t(rank)].size()) - 1;
    while (at >= 0) {
        const RankWork& w = schedule.ranks[size_t(rank)][size_t(at)];
        if (w.kind == WorkKind::Collective) {
            const int last = pass.lastArriver(w.collective);
            if (last != rank) {
                rank = last;
                at = long(pass.positionOf(w.collective, last));
            }
        }
        path.push_back({rank, int(at)});
        --at;
    }
    return {path.rbegin(), path.rend()};
}

}  // namespace

StepSimulation simulateStep(const StepSchedule& schedule, std::vector<double> collectiveSeconds,
                            const ComputeRates& rates) {
    if (collectiveSeconds.size() != schedule.collectives.size())
        throw std::invalid_argument("simulateStep: one time per collective");
    StepSimulation sim;
    sim.collectiveSeconds = std::move(collectiveSeconds);
    EventPass pass(schedule, sim, rates);
    pass.run();
    totals(sim);
    sim.criticalPath = criticalPath(schedule, sim, pass);
    return sim;
}

}  // namespace hsdp
