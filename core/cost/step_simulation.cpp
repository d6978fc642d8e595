// SPDX-License-Identifier: Apache-2.0
#include "cost/step_simulation.h"

#include "collectives/newton_schulz.h"
#include "cost/detail/collective_arrivals.h"
#include "cost/newton_schulz_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace hsdp {

ComputeRates computeRatesOf(const Cluster& cluster) {
    const DeviceSpec& device = cluster.device;
    ComputeRates rates;
    rates.flopsPerSecond = device.peakFlops.float32 * device.efficiency;
    rates.bytesPerSecond = device.memoryBandwidthBytesPerSecond * device.efficiency;
    return rates;
}

ComputeRates computeRatesOf(const Cluster& cluster, const StepSchedule& schedule) {
    ComputeRates rates = computeRatesOf(cluster);
    rates.newtonSchulzSecondsPerFlop.reserve(schedule.matrixSides.size());
    for (const auto& [k, l] : schedule.matrixSides) {
        const double flops = newtonSchulzSliceFlops(k, l, schedule.newtonSchulz.steps);
        rates.newtonSchulzSecondsPerFlop.push_back(
            flops > 0
                ? newtonSchulzSliceSeconds(cluster.device, k, l, schedule.newtonSchulz) / flops
                : 0);
    }
    return rates;
}

double workSeconds(const RankWork& work, const ComputeRates& rates) {
    switch (work.kind) {
        case WorkKind::Collective:
            return 0;
        case WorkKind::NewtonSchulz: {
            const int p = work.param();
            if (p >= 0 && size_t(p) < rates.newtonSchulzSecondsPerFlop.size() &&
                rates.newtonSchulzSecondsPerFlop[size_t(p)] > 0)
                return work.amount * rates.newtonSchulzSecondsPerFlop[size_t(p)];
            return rates.flopsPerSecond > 0 ? work.amount / rates.flopsPerSecond : 0;
        }
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
    EventPass(const StepSchedule& schedule, StepSimulation& sim, const ComputeRates& rates,
              const ItemTimes* items)
        : schedule_(schedule), sim_(sim), rates_(rates), items_(items), arrivals_(schedule) {
        const size_t n = schedule.ranks.size();
        sim.ranks.resize(n);
        for (size_t r = 0; r < n; ++r) sim.ranks[r].spans.resize(schedule.ranks[r].size());
        pos_.assign(n, 0);
        clock_.assign(n, 0);
        sim.collectiveStart.assign(schedule.collectives.size(), 0);
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

    const CollectiveArrivals& arrivals() const { return arrivals_; }

private:
    void advance(int r) {
        const auto& work = schedule_.ranks[size_t(r)];
        auto& timeline = sim_.ranks[size_t(r)];
        while (pos_[size_t(r)] < work.size()) {
            const size_t at = pos_[size_t(r)];
            const RankWork& w = work[at];
            WorkSpan& span = timeline.spans[at];
            span.arrival = clock_[size_t(r)] + given(&ItemTimes::gapBefore, r, at, 0);
            if (w.kind != WorkKind::Collective) {
                span.start = span.arrival;
                const double seconds = given(&ItemTimes::seconds, r, at, kModel);
                span.end = span.start + (std::isnan(seconds) ? workSeconds(w, rates_) : seconds);
                clock_[size_t(r)] = span.end;
                ++pos_[size_t(r)];
                continue;
            }
            const size_t c = size_t(w.collective);
            const bool latest =
                arrivals_.members(c).empty() || span.arrival >= sim_.collectiveStart[c];
            if (latest) sim_.collectiveStart[c] = span.arrival;
            arrivals_.arrive(c, r, at, latest);
            const size_t members = schedule_.groups[size_t(schedule_.collectives[c].group)].size();
            if (arrivals_.members(c).size() < members) return;  // blocked until the last member
            complete(c);
            // complete() moved r past the collective and queued the others
        }
    }

    void complete(size_t c) {
        const double start = sim_.collectiveStart[c];
        const double end = start + sim_.collectiveSeconds[c];
        const auto& members = arrivals_.members(c);
        for (const auto& [member, at] : members) {
            WorkSpan& span = sim_.ranks[size_t(member)].spans[at];
            span.start = start;
            const double own = given(&ItemTimes::seconds, member, at, kModel);
            span.end = std::isnan(own) ? end : std::max(span.arrival, start + own);
            clock_[size_t(member)] = span.end;
            pos_[size_t(member)] = at + 1;
            // The member whose advance() completed `c` (the last one listed)
            // goes on in its own loop; the others are queued.
            if (member != members.back().first) ready_.push_back(member);
        }
    }

    static constexpr double kModel = std::numeric_limits<double>::quiet_NaN();

    // (items_->*table)[r][at] where the table has it, else `fallback`.
    double given(std::vector<std::vector<double>> ItemTimes::*table, int r, size_t at,
                 double fallback) const {
        if (!items_ || size_t(r) >= (items_->*table).size()) return fallback;
        const auto& row = (items_->*table)[size_t(r)];
        return at < row.size() ? row[at] : fallback;
    }

    const StepSchedule& schedule_;
    StepSimulation& sim_;
    const ComputeRates& rates_;
    const ItemTimes* items_;
    std::vector<size_t> pos_;
    std::vector<double> clock_;
    CollectiveArrivals arrivals_;
    std::vector<int> ready_;
};

}  // namespace

StepSimulation simulateStep(const StepSchedule& schedule, std::vector<double> collectiveSeconds,
                            const ComputeRates& rates) {
    return simulateStep(schedule, std::move(collectiveSeconds), rates, ItemTimes{});
}

StepSimulation simulateStep(const StepSchedule& schedule, std::vector<double> collectiveSeconds,
                            const ComputeRates& rates, const ItemTimes& items) {
    if (collectiveSeconds.size() != schedule.collectives.size())
        throw std::invalid_argument("simulateStep: one time per collective");
    StepSimulation sim;
    sim.collectiveSeconds = std::move(collectiveSeconds);
    const bool any = !items.seconds.empty() || !items.gapBefore.empty();
    EventPass pass(schedule, sim, rates, any ? &items : nullptr);
    pass.run();
    concludeSimulation(schedule, pass.arrivals(), sim);
    return sim;
}

}  // namespace hsdp
