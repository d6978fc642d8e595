// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/plan_index.h"

#include <QObject>
#include <algorithm>

#include "plan/load_imbalance.h"

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

void sortRankLoads(const Plan& plan, PlanIndex& index) {
    std::vector<double> held, gathered, computed;
    for (const RankOwnership& rank : plan.ranks) {
        held.push_back(static_cast<double>(rank.heldNumel));
        gathered.push_back(static_cast<double>(rank.gatheredNumel));
        computed.push_back(static_cast<double>(rank.computedNumel));
    }
    index.heldByRank = std::make_shared<const SortedDistribution>(std::move(held));
    index.gatheredByRank = std::make_shared<const SortedDistribution>(std::move(gathered));
    index.computedByRank = std::make_shared<const SortedDistribution>(std::move(computed));
}

}  // namespace

PlanIndex buildPlanIndex(const Scenario& scenario, const Plan& plan) {
    PlanIndex index;
    index.params.resize(scenario.params.size());
    indexGroups(plan, index);
    indexRanks(plan, index);
    indexDiagnostics(plan, index);
    sortRankLoads(plan, index);
    if (const auto compute = rankComputeImbalance(plan.ranks))
        index.computeImbalance = compute->ratio;
    if (const auto worst = worstOwnerImbalance(plan.groups)) {
        index.worstImbalance = worst->ratio;
        index.worstGroup = worst->group;
        index.worstBatch = worst->batch;
    }
    return index;
}

QString worstImbalanceText(const Plan& plan, const PlanIndex& index) {
    if (index.worstGroup < 0 || static_cast<size_t>(index.worstGroup) >= plan.groups.size())
        return QObject::tr("none judged");
    // Even at the worst place: even everywhere, and no place to name.
    if (index.worstImbalance < 1.005) return QObject::tr("1.00 (even)");
    const Group& group = plan.groups[static_cast<size_t>(index.worstGroup)];
    const QString where =
        index.worstBatch < 0
            ? QObject::tr("group %1 over its %2 batches").arg(group.id).arg(group.batches.size())
            : QObject::tr("group %1 batch %2").arg(group.id).arg(index.worstBatch);
    return QStringLiteral("%1 (%2)").arg(QString::number(index.worstImbalance, 'f', 2), where);
}

QString imbalanceStatusText(const Plan& plan, const PlanIndex& index, bool predicted) {
    const QString owner = QObject::tr("owner imbalance %1").arg(worstImbalanceText(plan, index));
    if (!predicted || !index.computeImbalance) return owner;
    // "Sets the step" only where one rank's work stands out; an even load sets nothing.
    const QString role =
        *index.computeImbalance < 1.05 ? QObject::tr("even") : QObject::tr("sets the step");
    return QObject::tr("per-rank NS imbalance %1 (%2) · %3")
        .arg(QString::number(*index.computeImbalance, 'f', 2), role, owner);
}

int mostInterestingParam(const Scenario& scenario, const Plan& plan) {
    // An error's param first, planned or not: it is what the user must fix,
    // and the tensor layout and diagnostics show it even without owners.
    for (const Diagnostic& diagnostic : plan.diagnostics)
        if (diagnostic.severity == Severity::Error && !diagnostic.params.empty())
            return diagnostic.params.front();
    return mostInterestingPlannedParam(scenario, plan);
}

int mostInterestingPlannedParam(const Scenario& scenario, const Plan& plan) {
    // A warning the mesh can show (the param has a group, so owners).
    for (const Diagnostic& diagnostic : plan.diagnostics)
        if (diagnostic.severity == Severity::Warning)
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
