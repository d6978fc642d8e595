// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "derived/plan/sorted_distribution.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// Where one parameter sits in the plan. group/batch are -1 for a no-comm or
// rejected parameter; `owner` is its replicate coordinate inside the group.
struct ParamPlace {
    int group = -1;  // position in Plan::groups
    int batch = -1;  // position in Group::batches
    Coord owner;
    std::vector<int> ownerRanks;    // ascending: every rank whose Plan::ranks lists it
    std::vector<int> computeRanks;  // ascending: the ranks that run its Newton–Schulz
    std::vector<int> diagnostics;   // positions in Plan::diagnostics naming it
};

// Lookups the views need, computed once per plan off the GUI thread so that
// models and views only read.
struct PlanIndex {
    std::vector<ParamPlace> params;   // by param index
    std::vector<int64_t> ownedNumel;  // by rank: Plan::ranks[r].ownedNumel
    int64_t maxOwnedNumel = 0;
    std::vector<int64_t> computedNumel;  // by rank: Plan::ranks[r].computedNumel
    int64_t maxComputedNumel = 0;
    // Newton–Schulz numel per rank, max/mean over every rank (nullopt: none
    // runs any): the busiest rank's Newton–Schulz is what a predicted step
    // waits on, which the owner imbalance below (per owner coordinate of one
    // place) does not show.
    std::optional<double> computeImbalance;
    // The plan's worst owner imbalance (worstOwnerImbalance, plan/load_imbalance.h:
    // the places the owner-imbalance rule judges): max/mean, its group's
    // position (-1: no place judged) and batch (-1: the group over its batches).
    double worstImbalance = 1.0;
    int worstGroup = -1;
    int worstBatch = -1;
    // Plan::ranks' held, gathered and Newton–Schulz numel, sorted for the
    // per-rank distribution: 131,072 ranks took the GUI thread 30 ms to sort.
    std::shared_ptr<const SortedDistribution> heldByRank, gatheredByRank, computedByRank;
    int errorCount = 0;
    int warningCount = 0;
};

PlanIndex buildPlanIndex(const Scenario& scenario, const Plan& plan);

// The plan's worst owner imbalance and where: "1.71 (group 3 batch 0)",
// "2.00 (group 2 over its 96 batches)", or "none judged" when no batch or
// group has as many owned params as owners (what the status bar, the report
// and the plan comparison say).
QString worstImbalanceText(const Plan& plan, const PlanIndex& index);

// What the status bar says of imbalance: "owner imbalance 1.71 (group 3
// batch 0)"; with a prediction, first the per-rank Newton–Schulz imbalance
// that sets the predicted step: "per-rank Newton–Schulz imbalance 3.54 (sets
// the step) · owner imbalance …".
QString imbalanceStatusText(const Plan& plan, const PlanIndex& index, bool predicted);

// The parameter a first look should show: the first one an error names,
// planned or not (what the user must fix), else mostInterestingPlannedParam.
int mostInterestingParam(const Scenario& scenario, const Plan& plan);
// The one a picture of owners and shards should show: the first grouped one
// a warning names (a hazard), else the largest grouped one, else the first
// one a diagnostic names or the first param; -1 if none.
int mostInterestingPlannedParam(const Scenario& scenario, const Plan& plan);

}  // namespace hsdp
