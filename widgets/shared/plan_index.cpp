// SPDX-License-Identifier: Apache-2.0
#include "shared/plan_index.h"

#include <algorithm>

namespace hsdp {

namespace {

void indexGroups(const Plan& plan, PlanIndex& index) {
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const Group& group = plan.groups[g];
        for (size_t b = 0; b < group.batches.size(); ++b) {
            const Batch& batch = group.batches[b];
            for (int p : batch.params) {
                auto& place = index.params.at(static_cast<size_t>(p));
                place.group = static_cast<int>(g);
                place.batch = static_cast<int>(b);
                if (auto it = batch.owner.find(p); it != batch.owner.end())
                    place.owner = it->second;
            }
        }
    }
}

void indexRanks(const Plan& plan, PlanIndex& index) {
    index.ownedNumel.assign(plan.ranks.size(), 0);
    index.computedNumel.assign(plan.ranks.size(), 0);
    for (const RankOwnership& rank : plan.ranks) {
        if (rank.rank < 0 || static_cast<size_t>(rank.rank) >= plan.ranks.size()) continue;
        index.ownedNumel[static_cast<size_t>(rank.rank)] = rank.ownedNumel;
        index.maxOwnedNumel = std::max(index.maxOwnedNumel, rank.ownedNumel);
        index.computedNumel[static_cast<size_t>(rank.rank)] = rank.computedNumel;
        index.maxComputedNumel = std::max(index.maxComputedNumel, rank.computedNumel);
        for (int p : rank.owned)
            if (p >= 0 && static_cast<size_t>(p) < index.params.size())
                index.params[static_cast<size_t>(p)].ownerRanks.push_back(rank.rank);
        for (int p : rank.computed)
            if (p >= 0 && static_cast<size_t>(p) < index.params.size())
                index.params[static_cast<size_t>(p)].computeRanks.push_back(rank.rank);
    }
}

void indexDiagnostics(const Plan& plan, PlanIndex& index) {
    for (size_t d = 0; d < plan.diagnostics.size(); ++d) {
        const Diagnostic& diagnostic = plan.diagnostics[d];
        index.errorCount += diagnostic.severity == Severity::Error;
        index.warningCount += diagnostic.severity == Severity::Warning;
        for (int p : diagnostic.params)
            if (p >= 0 && static_cast<size_t>(p) < index.params.size())
                index.params[static_cast<size_t>(p)].diagnostics.push_back(static_cast<int>(d));
    }
}

double batchImbalance(const Batch& batch) {
    if (batch.loads.empty()) return 1.0;
    int64_t sum = 0, most = 0;
    for (int64_t load : batch.loads) {
        sum += load;
        most = std::max(most, load);
    }
    double mean = static_cast<double>(sum) / static_cast<double>(batch.loads.size());
    return mean > 0 ? static_cast<double>(most) / mean : 1.0;
}

}  // namespace

PlanIndex buildPlanIndex(const Scenario& scenario, const Plan& plan) {
    PlanIndex index;
    index.params.resize(scenario.params.size());
    indexGroups(plan, index);
    indexRanks(plan, index);
    indexDiagnostics(plan, index);
    for (const Group& group : plan.groups)
        for (const Batch& batch : group.batches)
            index.worstImbalance = std::max(index.worstImbalance, batchImbalance(batch));
    return index;
}

int mostInterestingParam(const Scenario& scenario, const Plan& plan) {
    // A hazard the mesh can show (the param has a group, so owners) comes first.
    for (Severity severity : {Severity::Error, Severity::Warning})
        for (const Diagnostic& diagnostic : plan.diagnostics)
            if (diagnostic.severity == severity)
                for (int p : diagnostic.params)
                    if (plan.groupOf(p)) return p;
    int best = -1;
    for (const Group& group : plan.groups)
        for (int p : group.params)
            if (best < 0 || scenario.params.at(static_cast<size_t>(p)).numel() >
                                scenario.params.at(static_cast<size_t>(best)).numel())
                best = p;
    if (best >= 0) return best;
    for (const Diagnostic& diagnostic : plan.diagnostics)
        if (!diagnostic.params.empty()) return diagnostic.params.front();
    return scenario.params.empty() ? -1 : 0;
}

}  // namespace hsdp
