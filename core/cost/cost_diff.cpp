// SPDX-License-Identifier: Apache-2.0
#include "cost/cost_diff.h"

#include <cmath>

#include <map>

namespace hsdp {

namespace {

template <class T>
Better lower(T before, T after) {
    if (after < before) return Better::After;
    if (before < after) return Better::Before;
    return Better::Same;
}

CostSide sideOf(const PlanCost& cost) {
    CostSide side;
    side.stepSeconds = cost.stepSeconds;
    side.peakRank = cost.peakRank;
    if (size_t(cost.peakRank) < cost.memory.size()) {
        const StepMemory& peak = cost.memory[size_t(cost.peakRank)];
        side.peakBytes = peak.peakBytes;
        side.residentBytes = peak.residentBytes;
    }
    side.deviceBytes = cost.memoryFit.deviceBytes;
    return side;
}

std::vector<PhaseChange> phaseChanges(const PlanCost& before, const PlanCost& after) {
    std::map<StepPhase, PhaseChange> byPhase;
    for (const auto& p : before.phases) {
        byPhase[p.phase].beforeSeconds = p.criticalSeconds;
        byPhase[p.phase].beforeNewtonSchulzSeconds = p.criticalNewtonSchulzSeconds;
    }
    for (const auto& p : after.phases) {
        byPhase[p.phase].afterSeconds = p.criticalSeconds;
        byPhase[p.phase].afterNewtonSchulzSeconds = p.criticalNewtonSchulzSeconds;
    }
    std::vector<PhaseChange> out;
    for (auto& [phase, change] : byPhase) {
        change.phase = phase;
        out.push_back(change);
    }
    return out;
}

}  // namespace

std::string_view betterName(Better better) {
    switch (better) {
        case Better::Before:
            return "before";
        case Better::After:
            return "after";
        case Better::Same:
            return "same";
    }
    return "?";
}

Better CostDiff::faster() const {
    return lower(before.stepSeconds, after.stepSeconds);
}

bool CostDiff::withinError() const {
    const double faster = std::min(before.stepSeconds, after.stepSeconds);
    return errorPercent >= 0 && faster > 0 &&
           std::fabs(stepSecondsChange()) < faster * errorPercent / 100;
}

Better CostDiff::lighter() const {
    return lower(before.peakBytes, after.peakBytes);
}

std::string_view CostDiff::fit() const {
    if (before.deviceBytes <= 0 || after.deviceBytes <= 0) return "unknown";
    if (before.fits() && after.fits()) return "both";
    if (before.fits()) return "before";
    if (after.fits()) return "after";
    return "neither";
}

CostDiff diffCosts(const PlanCost& before, const PlanCost& after) {
    CostDiff diff;
    diff.cluster = after.cluster.name;
    diff.trust = after.cluster.trustText();
    diff.errorPercent = after.cluster.validation.errorPercent;
    diff.before = sideOf(before);
    diff.after = sideOf(after);
    diff.phases = phaseChanges(before, after);
    return diff;
}

}  // namespace hsdp
