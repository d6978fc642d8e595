// SPDX-License-Identifier: Apache-2.0
#include "cost/memory_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cost/step_memory_model.h"
#include "plan/diagnostics.h"
#include "plan/grouping.h"
#include "plan/planner.h"
#include "types/figures.h"
#include "types/stopped.h"

namespace hsdp {

namespace {

// The first rank with the highest peak.
size_t peakOf(const std::vector<StepMemory>& memory) {
    size_t peak = 0;
    for (size_t r = 1; r < memory.size(); ++r)
        if (memory[r].peakBytes > memory[peak].peakBytes) peak = r;
    return peak;
}

// The schedule entry where `m` reaches its peak (the first), -1 for none or
// the params held whole after the schedule.
int peakEntryOf(const StepMemory& m) {
    for (const EntryMemory& e : m.entries)
        if (e.peakBytes == m.peakBytes) return e.scheduleIndex;
    return -1;
}

// One candidate: the scenario re-planned under other options, its step
// memory predicted.
struct Trial {
    Plan plan;
    int peakRank = 0;
    int64_t peakBytes = 0;
    int64_t residentBytes = 0;
};

// Plans and predicts the scenario under changed options. The grouping does
// not depend on the batch cap, so each group keeps the gather strategy the
// plan settled (auto included), unless `strategy` sets every gathered one.
class Trials {
public:
    Trials(const Scenario& scenario, const Plan& plan, int64_t deviceBytes, std::stop_token stop)
        : variant_(scenario), plan_(plan), deviceBytes_(deviceBytes), stop_(std::move(stop)) {}

    Trial run(std::optional<int64_t> cap, std::optional<GatherStrategy> strategy) {
        throwIfStopped(stop_);
        variant_.options.maxBatchNumel = cap;
        Trial t{makePlan(variant_)};
        for (size_t g = 0; g < t.plan.groups.size() && g < plan_.groups.size(); ++g) {
            Group& group = t.plan.groups[g];
            group.gatherStrategy = plan_.groups[g].gatherStrategy;
            group.gatherStrategySettled = true;
            if (strategy && isGathered(group)) group.gatherStrategy = *strategy;
        }
        const auto memory = predictStepPeaks(variant_, t.plan, stop_);
        if (!memory.empty()) {
            const size_t peak = peakOf(memory);
            t.peakRank = memory[peak].rank;
            t.peakBytes = memory[peak].peakBytes;
            t.residentBytes = memory[peak].residentBytes;
        }
        return t;
    }

    bool fits(const Trial& t) const { return t.peakBytes <= deviceBytes_; }

    // The largest batch cap that fits under `strategy`, between one param per
    // batch and `failing` (a cap whose plan is known not to fit). A plan
    // planned at cap c is the plan of every cap from just above its largest
    // open prefix (the numel a batch held before its last param; the whole of
    // a batch the cap did not close) up to its smallest closed batch, so each
    // trial moves an end of the range to the end of its plan's range: the
    // cap returned fits, the next one up does not, in a few trials.
    // `lightest` gets the one-param-per-batch trial.
    std::optional<MemoryRemedy> largestCap(std::optional<GatherStrategy> strategy, int64_t failing,
                                           Trial& lightest) {
        lightest = run(1, strategy);
        if (!fits(lightest) || failing <= 1) return std::nullopt;
        int64_t lo = lastCapOf(lightest.plan, 1, failing);
        MemoryRemedy best{lo, strategy, lightest.peakRank, lightest.peakBytes};
        int64_t hi = failing;
        while (hi - lo > 1) {
            // Geometric steps while the range spans orders of magnitude.
            int64_t mid =
                hi / 2 > lo ? int64_t(std::sqrt(double(lo) * double(hi))) : lo + (hi - lo) / 2;
            mid = std::clamp(mid, lo + 1, hi - 1);
            Trial t = run(mid, strategy);
            if (!fits(t)) {
                hi = std::max(firstCapOf(t.plan, mid), lo + 1);
                continue;
            }
            lo = lastCapOf(t.plan, mid, hi);
            best = {lo, strategy, t.peakRank, t.peakBytes};
        }
        return best;
    }

private:
    // The largest cap, below `hi`, that plans `plan` (planned at `cap`): a
    // batch the cap closed (numel >= cap) stays closed up to its numel.
    static int64_t lastCapOf(const Plan& plan, int64_t cap, int64_t hi) {
        int64_t end = hi - 1;
        for (const Group& g : plan.groups)
            for (const Batch& b : g.batches)
                if (b.numel >= cap) end = std::min(end, b.numel);
        return std::max(end, cap);
    }

    // The smallest cap that plans `plan` (planned at `cap`): one above every
    // open prefix, as a lower cap would close a batch before its last param
    // (the smallest: the greedy adds them largest first).
    int64_t firstCapOf(const Plan& plan, int64_t cap) const {
        int64_t open = 0;
        for (const Group& g : plan.groups)
            for (const Batch& b : g.batches) {
                int64_t last = b.numel;
                for (int p : b.params) last = std::min(last, variant_.params.at(size_t(p)).numel());
                open = std::max(open, b.numel >= cap ? b.numel - last : b.numel);
            }
        return std::min(open + 1, cap);
    }

    Scenario variant_;
    const Plan& plan_;
    int64_t deviceBytes_;
    std::stop_token stop_;
};

// The strategies a remedy may switch every gathered group to: those some
// gathered group does not run yet.
std::vector<GatherStrategy> otherStrategies(const Plan& plan) {
    std::vector<GatherStrategy> out;
    for (GatherStrategy s : {GatherStrategy::AllGather, GatherStrategy::AllToAll})
        if (std::any_of(plan.groups.begin(), plan.groups.end(),
                        [&](const Group& g) { return isGathered(g) && g.gatherStrategy != s; }))
            out.push_back(s);
    return out;
}

// A cap at least as large as the largest group: one batch per group, as no cap.
int64_t noCapEquivalent(const Scenario& scenario, const Plan& plan) {
    int64_t most = 1;
    for (const Group& g : plan.groups) {
        int64_t total = 0;
        for (int p : g.params) total += scenario.params.at(size_t(p)).numel();
        most = std::max(most, total);
    }
    return most == std::numeric_limits<int64_t>::max() ? most : most + 1;
}

std::string remedyText(const MemoryRemedy& r) {
    std::string text;
    if (r.maxBatchNumel)
        text = "options.max_batch_numel " + groupedCount(*r.maxBatchNumel) + " or lower";
    if (r.gatherStrategy)
        text += std::string(text.empty() ? "" : " with ") + "options.gather_strategy \"" +
                std::string(gatherStrategyName(*r.gatherStrategy)) + "\"";
    return text + " (rank " + std::to_string(r.peakRank) + " then peaks at " +
           humanBytes(double(r.peakBytes)) + ")";
}

}  // namespace

MemoryFit memoryFitOf(const Plan& plan, const std::vector<StepMemory>& memory,
                      const Cluster& cluster) {
    MemoryFit fit;
    fit.deviceBytes = std::max<int64_t>(0, cluster.device.memoryBytes);
    fit.deviceName = cluster.device.name;
    fit.ranks = int(memory.size());
    if (memory.empty()) return fit;
    const StepMemory& peak = memory[peakOf(memory)];
    fit.peakRank = peak.rank;
    fit.peakBytes = peak.peakBytes;
    fit.residentBytes = peak.residentBytes;
    fit.peakEntry = peakEntryOf(peak);
    if (fit.peakEntry >= int(plan.schedule.size())) fit.peakEntry = -1;
    if (fit.deviceBytes > 0)
        for (const StepMemory& m : memory) fit.ranksOver += m.peakBytes > fit.deviceBytes;
    return fit;
}

MemoryFit memoryFit(const Scenario& scenario, const Plan& plan,
                    const std::vector<StepMemory>& memory, const Cluster& cluster,
                    std::stop_token stop) {
    MemoryFit fit = memoryFitOf(plan, memory, cluster);
    if (fit.fits() || plan.worldSize != scenario.worldSize) return fit;
    fit.searched = true;
    Trials trials(scenario, plan, remedyBudget(fit.deviceBytes), std::move(stop));
    const int64_t failing =
        scenario.options.maxBatchNumel.value_or(noCapEquivalent(scenario, plan));
    const std::optional<int64_t> cap = scenario.options.maxBatchNumel;

    std::optional<Trial> floor;
    auto lighter = [&](Trial& t) {
        if (!floor || t.peakBytes < floor->peakBytes) floor = std::move(t);
    };
    Trial lightest;
    if (auto r = trials.largestCap(std::nullopt, failing, lightest)) fit.remedies.push_back(*r);
    lighter(lightest);
    const auto others = otherStrategies(plan);
    for (GatherStrategy s : others) {
        Trial t = trials.run(cap, s);
        if (trials.fits(t)) fit.remedies.push_back({std::nullopt, s, t.peakRank, t.peakBytes});
    }
    if (fit.remedies.empty())
        for (GatherStrategy s : others) {
            if (auto r = trials.largestCap(s, failing, lightest)) fit.remedies.push_back(*r);
            lighter(lightest);
        }
    if (fit.remedies.empty() && floor) {
        fit.floorRank = floor->peakRank;
        fit.floorBytes = floor->peakBytes;
        fit.floorResidentBytes = floor->residentBytes;
    }
    return fit;
}

namespace {

// "; the peak in step 3, group 1 batch 2", and that batch's params.
void addPeakEntry(Diagnostic& d, const MemoryFit& fit, const Plan& plan) {
    if (fit.peakEntry < 0) return;
    const ScheduleEntry& e = plan.schedule[size_t(fit.peakEntry)];
    d.message += "; the peak in step " + std::to_string(fit.peakEntry) + ", group " +
                 std::to_string(e.group) + " batch " + std::to_string(e.batch);
    if (e.group >= 0 && size_t(e.group) < plan.groups.size() && e.batch >= 0 &&
        size_t(e.batch) < plan.groups[size_t(e.group)].batches.size())
        d.params = plan.groups[size_t(e.group)].batches[size_t(e.batch)].params;
    std::sort(d.params.begin(), d.params.end());
}

}  // namespace

std::optional<Diagnostic> outOfMemoryDiagnostic(const MemoryFit& fit, const Plan& plan) {
    if (fit.fits()) return std::nullopt;
    Diagnostic d;
    d.severity = Severity::Error;
    d.code = std::string(codes::OutOfMemory);
    const std::string device = fit.deviceName.empty() ? "the device" : fit.deviceName;
    d.message = "predicted peak memory over the device's: rank " + std::to_string(fit.peakRank) +
                " peaks at " + humanBytes(double(fit.peakBytes)) + " in the optimizer step, " +
                humanBytes(double(fit.overBytes())) + " (" + exactBytes(fit.overBytes()) +
                ") over the " + humanBytes(double(fit.deviceBytes)) + " of " + device + " (" +
                std::to_string(fit.ranksOver) + " of " + std::to_string(fit.ranks) +
                " ranks over; " + humanBytes(double(fit.residentBytes)) + " of it resident";
    addPeakEntry(d, fit, plan);
    d.message += ")";
    if (!fit.searched) return d;
    if (!fit.remedies.empty()) {
        d.message += "; fits with ";
        for (size_t i = 0; i < fit.remedies.size(); ++i)
            d.message += (i ? ", or with " : "") + remedyText(fit.remedies[i]);
        d.message += ", each leaving " + percentText(kMemoryHeadroom) + " of the device free";
        return d;
    }
    d.message += "; no batch cap or gather strategy fits with " + percentText(kMemoryHeadroom) +
                 " of the device left: even one param per batch peaks at " +
                 humanBytes(double(fit.floorBytes)) + " on rank " + std::to_string(fit.floorRank) +
                 ", " + humanBytes(double(fit.floorResidentBytes)) +
                 " of it the resident param, grad and momentum shards";
    return d;
}

std::optional<Diagnostic> memoryTightDiagnostic(const MemoryFit& fit, const Plan& plan) {
    if (!fit.tight()) return std::nullopt;
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = std::string(codes::MemoryTight);
    const std::string device = fit.deviceName.empty() ? "the device" : fit.deviceName;
    d.message = "predicted peak memory within " +
                std::to_string(std::lround(100 * kMemoryHeadroom)) + " % of the device's: rank " +
                std::to_string(fit.peakRank) + " peaks at " + humanBytes(double(fit.peakBytes)) +
                " in the optimizer step, " +
                percentText(double(fit.peakBytes) / double(fit.deviceBytes)) + " of the " +
                humanBytes(double(fit.deviceBytes)) + " of " + device + ", leaving " +
                humanBytes(double(fit.deviceBytes - fit.peakBytes)) +
                " for the CUDA context, the allocator's fragmentation and what the job keeps "
                "beside the step (" +
                humanBytes(double(fit.residentBytes)) + " of the peak resident";
    addPeakEntry(d, fit, plan);
    d.message += "); a smaller options.max_batch_numel lowers the peak";
    return d;
}

std::optional<Diagnostic> memoryDiagnostic(const MemoryFit& fit, const Plan& plan) {
    if (auto d = outOfMemoryDiagnostic(fit, plan)) return d;
    return memoryTightDiagnostic(fit, plan);
}

}  // namespace hsdp
