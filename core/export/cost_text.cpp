// SPDX-License-Identifier: Apache-2.0
#include "export/cost_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cost/memory_fit.h"
#include "cost/newton_schulz_cost.h"
#include "types/figures.h"

namespace hsdp {

namespace {

constexpr size_t kCriticalLines = 6;

std::string threeSignificantText(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", value);
    return buf;
}

// "h100-dgx: 1 node x 8 NVIDIA H100 (8 devices; the plan's 4 ranks use 4
// of them)": the cluster's size is not the plan's world (it was read as such).
std::string clusterLine(const Cluster& cluster, int world) {
    std::string device = cluster.device.name.empty() ? "devices" : cluster.device.name;
    const int devices = cluster.worldSize();
    return cluster.name + ": " + std::to_string(cluster.nodes) + " node" +
           (cluster.nodes == 1 ? "" : "s") + " x " + std::to_string(cluster.devicesPerNode) + " " +
           device + " (" + std::to_string(devices) + " devices; the plan's " +
           std::to_string(world) + " ranks use " +
           (world == devices ? std::string("all of them") : std::to_string(world) + " of them") +
           ")";
}

std::string segmentWhere(const CriticalSegment& s) {
    if (s.phase == StepPhase::Tp) return "tp transition " + std::to_string(s.index);
    if (s.index < 0) return "local params";
    return "schedule entry " + std::to_string(s.index);  // "step" is the whole step
}

// "Newton-Schulz 8.5 s, other compute 0.2 s, collectives 0.3 s": a share of
// the critical path by what its items are (zero parts left out).
std::string criticalSplitText(double newtonSchulz, double compute, double total) {
    std::vector<std::string> parts;
    if (newtonSchulz > 0) parts.push_back("Newton-Schulz " + durationText(newtonSchulz));
    if (compute - newtonSchulz > 0)
        parts.push_back("other compute " + durationText(compute - newtonSchulz));
    if (total - compute > 0) parts.push_back("collectives " + durationText(total - compute));
    if (parts.empty()) return "nothing";
    std::string out = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) out += ", " + parts[i];
    return out;
}

// The critical path by phase, each split as the timelines colour it:
// Newton–Schulz, the other compute (packing, unpacking, updates) and the
// collectives, so the owners' Newton–Schulz is not read as the broadcast it
// precedes; then the same split over the whole path.
void writePhases(std::ostringstream& out, const PlanCost& cost) {
    double ns = 0, compute = 0, total = 0;
    bool first = true;
    for (const auto& p : cost.phases) {
        out << (first ? "  phases           " : "                   ") << stepPhaseName(p.phase)
            << ": " << durationText(p.criticalSeconds) << " of the critical path ("
            << criticalSplitText(p.criticalNewtonSchulzSeconds, p.criticalComputeSeconds,
                                 p.criticalSeconds)
            << ")";
        if (p.collectives)
            out << ", " << p.collectives << " collective" << (p.collectives == 1 ? "" : "s") << " ("
                << durationText(p.collectiveSeconds) << " summed over collectives)";
        out << "\n";
        ns += p.criticalNewtonSchulzSeconds;
        compute += p.criticalComputeSeconds;
        total += p.criticalSeconds;
        first = false;
    }
    if (!cost.phases.empty())
        out << "  critical path by kind  " << criticalSplitText(ns, compute, total) << "\n";
}

void writeCriticalPath(std::ostringstream& out, const PlanCost& cost) {
    std::vector<size_t> order(cost.criticalPath.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return cost.criticalPath[a].seconds > cost.criticalPath[b].seconds;
    });
    order.resize(std::min(order.size(), kCriticalLines));
    std::sort(order.begin(), order.end());  // the longest ones, in time order
    out << "  critical path    " << cost.criticalPath.size() << " segment"
        << (cost.criticalPath.size() == 1 ? "" : "s") << "; the longest:\n";
    for (size_t i : order) {
        const auto& s = cost.criticalPath[i];
        out << "    at " << durationText(s.startSeconds) << "  rank " << s.rank << "  "
            << stepPhaseName(s.phase) << " " << segmentWhere(s) << "  " << durationText(s.seconds);
        out << " (" << durationText(s.seconds - s.collectiveSeconds) << " compute";
        if (s.collectives)
            out << ", " << s.collectives << " collective" << (s.collectives == 1 ? "" : "s") << " "
                << durationText(s.collectiveSeconds);
        out << ")";
        out << "\n";
    }
}

void writeLinks(std::ostringstream& out, const PlanCost& cost) {
    bool first = true;
    for (const auto& d : cost.meshDims) {
        out << (first ? "  across nodes     " : "                   ") << d.mesh << "." << d.dimName
            << " (dim " << d.dim << "): " << d.crossingNodes << " of " << d.groups
            << " groups cross nodes\n";
        first = false;
    }
}

// The worst rank's peak, what it is made of, and whether it fits the device.
void writeMemory(std::ostringstream& out, const PlanCost& cost) {
    const StepMemory& worst = cost.memory.at(size_t(cost.peakRank));
    out << "  step memory      rank " << worst.rank
        << " peaks highest: " << humanBytes(double(worst.peakBytes)) << " in the optimizer step ("
        << humanBytes(double(worst.residentBytes)) << " resident";
    for (int k = 0; k < kMemoryKinds; ++k)
        if (!isResident(MemoryKind(k)) && worst.atPeak[size_t(k)])
            out << ", " << memoryKindName(MemoryKind(k)) << " "
                << humanBytes(double(worst.atPeak[size_t(k)]));
    out << ")";
    if (const int64_t capacity = cost.cluster.device.memoryBytes; capacity > 0)
        out << ", " << threeSignificantText(100.0 * double(worst.peakBytes) / double(capacity))
            << " % of the device's " << humanBytes(double(capacity))
            << (worst.peakBytes > capacity ? ": DOES NOT FIT (error out-of-memory)"
                : cost.memoryFit.tight()
                    ? ": tight, under " + std::to_string(std::lround(100 * kMemoryHeadroom)) +
                          " % left (warning memory-tight)"
                    : std::string());
    out << "\n";
}

void writeRanks(std::ostringstream& out, const PlanCost& cost) {
    if (cost.ranks.empty()) return;
    auto busiest = std::max_element(
        cost.ranks.begin(), cost.ranks.end(),
        [](const auto& a, const auto& b) { return a.busySeconds < b.busySeconds; });
    auto waiting = std::max_element(
        cost.ranks.begin(), cost.ranks.end(),
        [](const auto& a, const auto& b) { return a.waitingSeconds < b.waitingSeconds; });
    out << "  busiest rank     rank " << busiest->rank << ": busy "
        << durationText(busiest->busySeconds) << ", waiting "
        << durationText(busiest->waitingSeconds) << "\n";
    out << "  most waiting     rank " << waiting->rank << ": waiting "
        << durationText(waiting->waitingSeconds) << " for the last member of its collectives\n";
    writeMemory(out, cost);
}

// The most a rank receives to get its matrices to Newton–Schulz and the
// update back: as the runner does it, and under all-to-all.
void writeGatherTraffic(std::ostringstream& out, const PlanCost& cost) {
    const int64_t gathered = cost.gatherTraffic.allGather.maxReceived();
    const int64_t toAll = cost.gatherTraffic.allToAll.maxReceived();
    if (gathered == 0) return;
    out << "  gather traffic   all-gather: up to " << humanBytes(double(gathered))
        << " received per rank (gather + update broadcast); all-to-all: up to "
        << humanBytes(double(toAll));
    if (toAll > 0)
        out << " (" << threeSignificantText(double(gathered) / double(toAll)) << "x less)";
    out << "; the plan runs " << cost.gatherTraffic.runs << "\n";
}

}  // namespace

std::string costToText(const PlanCost& cost, const std::string& sizes) {
    std::ostringstream out;
    out << "Cost on " << clusterLine(cost.cluster, cost.schedule.worldSize) << ", predicted at "
        << sizes << "\n";
    out << "  step time        " << durationText(cost.stepSeconds) << " "
        << cost.cluster.trustText() << " (rank " << cost.lastRank << " finishes last)\n";
    const ComputeRates rates = computeRatesOf(cost.cluster);
    const NewtonSchulzOptions& ns = cost.schedule.newtonSchulz;
    const DeviceSpec& device = cost.cluster.device;
    out << "  compute rates    Newton-Schulz " << ns.steps << " steps in "
        << (ns.dtype == DType::BF16 ? "bf16" : "fp32") << " at up to "
        << threeSignificantText(peakFlopsFor(device, ns.dtype) * device.achievedMatmulEfficiency() /
                                1e12)
        << " TFLOP/s (the " << (ns.dtype == DType::BF16 ? "bf16" : "fp32")
        << " peak x matmul efficiency; smaller matrices slower), memory-bound work at "
        << bandwidthText(rates.bytesPerSecond) << "\n";
    writePhases(out, cost);
    writeCriticalPath(out, cost);
    writeLinks(out, cost);
    writeRanks(out, cost);
    writeGatherTraffic(out, cost);
    return out.str();
}

namespace {

std::string figuresText(const StrategyFigures& f) {
    return humanBytes(double(f.maxReceived)) + ", " + durationText(f.seconds) + ", peak " +
           humanBytes(double(f.peakBytes));
}

}  // namespace

std::string strategyComparisonsText(const std::vector<StrategyComparison>& comparisons,
                                    size_t gatheredGroups) {
    if (comparisons.empty()) return {};
    std::ostringstream out;
    out << "  gather strategies  per gathered group, at real size: the most a rank receives, the "
           "busiest rank's gather + update return (Newton-Schulz, the same under both, left "
           "out), the step's peak\n";
    for (const StrategyComparison& c : comparisons) {
        out << "    group " << c.groupId << "  all-gather " << figuresText(c.allGather)
            << "; all-to-all " << figuresText(c.allToAll) << "; runs " << gatherStrategyName(c.used)
            << (c.chosenByAuto ? " (auto)" : " (options.gather_strategy)") << "\n";
    }
    if (gatheredGroups > comparisons.size())
        out << "    and " << gatheredGroups - comparisons.size()
            << " more gathered groups (the studio's Gather strategy view shows each)\n";
    // A group's peak is with the others as they are: one group alone may not
    // fit where every group on one strategy does.
    const StrategyComparison& any = comparisons.front();
    out << "    every gathered group on one strategy: all-gather peak "
        << humanBytes(double(any.allGather.everyGroupPeakBytes)) << ", all-to-all peak "
        << humanBytes(double(any.allToAll.everyGroupPeakBytes)) << "\n";
    return out.str();
}

}  // namespace hsdp
