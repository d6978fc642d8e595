// SPDX-License-Identifier: Apache-2.0
#include "cost/shared_cores.h"

#include "cost/detail/collective_arrivals.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <string>

namespace hsdp {

double sharedCoreSpeed(double busy, double cores) {
    if (busy <= 0 || cores <= 0) return 1;
    return std::min(1.0, cores / busy);
}

double idleFraction(double load, double cores) {
    return cores > 0 ? std::max(0.0, 1 - load / cores) : 0;
}

namespace {

// Every busy item progresses at the same speed, so one "work clock" (seconds
// of full-speed work done by each busy item since the start) orders all
// completions: an item started at work time w0 with work d ends at w0 + d,
// whatever the speed does meanwhile. Real time advances by
// (work-clock step) / speed(busy).
class SharedPass {
public:
    SharedPass(const StepSchedule& schedule, StepSimulation& sim, const ComputeRates& rates,
               double cores, double memberLoad)
        : schedule_(schedule),
          sim_(sim),
          rates_(rates),
          cores_(cores),
          memberLoad_(memberLoad),
          arrivals_(schedule) {
        const size_t n = schedule.ranks.size();
        sim.ranks.resize(n);
        for (size_t r = 0; r < n; ++r) sim.ranks[r].spans.resize(schedule.ranks[r].size());
        pos_.assign(n, 0);
        sim.collectiveStart.assign(schedule.collectives.size(), 0);
    }

    void run() {
        for (int r = 0; r < int(schedule_.ranks.size()); ++r) ready_.push_back(r);
        drainReady();
        while (!running_.empty()) {
            const Item item = running_.top();
            running_.pop();
            now_ += (item.doneAt - work_) / sharedCoreSpeed(busy_, cores_);
            work_ = item.doneAt;
            finish(item);
            drainReady();
        }
        for (size_t r = 0; r < schedule_.ranks.size(); ++r)
            if (pos_[r] < schedule_.ranks[r].size())
                throw std::logic_error("the step cannot complete: rank " + std::to_string(r) +
                                       " waits forever at item " + std::to_string(pos_[r]));
    }

    const CollectiveArrivals& arrivals() const { return arrivals_; }

private:
    struct Item {
        double doneAt = 0;  // on the work clock
        long order = 0;     // ties: first started first
        int rank = -1;      // a compute item's rank, or -1
        int collective = -1;
        bool operator<(const Item& o) const {  // for a min-heap on doneAt
            return doneAt != o.doneAt ? doneAt > o.doneAt : order > o.order;
        }
    };

    void drainReady() {
        while (!ready_.empty()) {
            const int r = ready_.back();
            ready_.pop_back();
            advance(r);
        }
    }

    // Runs rank r until it is busy, blocked at a collective or done.
    void advance(int r) {
        const auto& work = schedule_.ranks[size_t(r)];
        auto& spans = sim_.ranks[size_t(r)].spans;
        while (pos_[size_t(r)] < work.size()) {
            const size_t at = pos_[size_t(r)];
            const RankWork& w = work[at];
            WorkSpan& span = spans[at];
            span.arrival = now_;
            if (w.kind != WorkKind::Collective) {
                span.start = now_;
                const double seconds = workSeconds(w, rates_);
                if (seconds <= 0) {
                    span.end = now_;
                    ++pos_[size_t(r)];
                    continue;
                }
                ++busy_;
                running_.push({work_ + seconds, order_++, r, -1});
                return;
            }
            const size_t c = size_t(w.collective);
            arrivals_.arrive(c, r, at, true);
            sim_.collectiveStart[c] = now_;
            const size_t members = schedule_.groups[size_t(schedule_.collectives[c].group)].size();
            if (arrivals_.members(c).size() < members) return;  // asleep until the last member
            busy_ += memberLoad_ * double(members);
            double seconds = sim_.collectiveSeconds[c];
            if (c < idleWake_.size()) seconds += idleWake_[c] * idleFraction(busy_, cores_);
            if (seconds <= 0) {
                busy_ -= memberLoad_ * double(members);
                endCollective(c);
                continue;  // r moved past it; the others are queued
            }
            running_.push({work_ + seconds, order_++, -1, int(c)});
            return;
        }
    }

    void finish(const Item& item) {
        if (item.rank >= 0) {
            --busy_;
            const size_t at = pos_[size_t(item.rank)];
            sim_.ranks[size_t(item.rank)].spans[at].end = now_;
            pos_[size_t(item.rank)] = at + 1;
            ready_.push_back(item.rank);
            return;
        }
        const size_t c = size_t(item.collective);
        busy_ -= memberLoad_ * double(arrivals_.members(c).size());
        if (busy_ < 1e-9) busy_ = 0;  // rounding
        endCollective(c);
        ready_.push_back(arrivals_.members(c).back().first);
    }

    // Every member leaves collective c now; all but the last arriver are
    // queued (the last one is the caller's to continue).
    void endCollective(size_t c) {
        const double start = sim_.collectiveStart[c];
        const auto& members = arrivals_.members(c);
        for (const auto& [member, at] : members) {
            WorkSpan& span = sim_.ranks[size_t(member)].spans[at];
            span.start = start;
            span.end = now_;
            pos_[size_t(member)] = at + 1;
            if (member != members.back().first) ready_.push_back(member);
        }
        end_[c] = now_;
    }

public:
    std::vector<double> end_;
    std::vector<double> idleWake_;

private:
    const StepSchedule& schedule_;
    StepSimulation& sim_;
    const ComputeRates& rates_;
    const double cores_;
    const double memberLoad_;
    double now_ = 0;   // real time
    double work_ = 0;  // the work clock
    double busy_ = 0;
    long order_ = 0;
    std::vector<size_t> pos_;
    CollectiveArrivals arrivals_;
    std::vector<int> ready_;
    std::priority_queue<Item> running_;
};

}  // namespace

StepSimulation simulateOnSharedCores(const StepSchedule& schedule,
                                     std::vector<double> collectiveSeconds,
                                     const ComputeRates& rates, double cores, double memberLoad,
                                     std::vector<double> idleWake) {
    if (collectiveSeconds.size() != schedule.collectives.size())
        throw std::invalid_argument("simulateOnSharedCores: one time per collective");
    StepSimulation sim;
    sim.collectiveSeconds = std::move(collectiveSeconds);
    SharedPass pass(schedule, sim, rates, cores, memberLoad);
    pass.end_.assign(schedule.collectives.size(), 0);
    pass.idleWake_ = std::move(idleWake);
    pass.run();
    for (size_t c = 0; c < schedule.collectives.size(); ++c)
        sim.collectiveSeconds[c] = pass.end_[c] - sim.collectiveStart[c];
    concludeSimulation(schedule, pass.arrivals(), sim);
    return sim;
}

StepSimulation simulateOn(const StepSchedule& schedule, const Cluster& cluster) {
    const ComputeRates rates = computeRatesOf(cluster, schedule);
    std::vector<double> seconds = collectiveSecondsOn(schedule, cluster);
    if (cluster.sharedCores > 0) {
        std::vector<double> idleWake;
        for (const auto& c : schedule.collectives) {
            const auto& group = schedule.groups[size_t(c.group)];
            const int n = int(group.size());
            const bool runs = n > 1 && (c.sizeBytes > 0 || c.op == CollectiveOp::Barrier);
            const LinkSpec& link = cluster.link(cluster.linkLevelOf(group), traceNameOf(c.op));
            idleWake.push_back(
                runs ? collectiveSteps(c.op, n, cluster.algorithms) * link.idleWakeSeconds : 0);
        }
        return simulateOnSharedCores(schedule, std::move(seconds), rates, cluster.sharedCores,
                                     cluster.collectiveMemberLoad, std::move(idleWake));
    }
    return simulateStep(schedule, std::move(seconds), rates);
}

}  // namespace hsdp
