// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "plan/plan.h"

namespace hsdp {

// The plan's imbalance measure for owner loads: the heaviest coordinate's
// numel over the mean numel of all coordinates (1.0 is perfectly even).
// nullopt when there is no coordinate or no load at all.
std::optional<double> loadImbalance(const std::vector<int64_t>& numels);
std::optional<double> loadImbalance(const std::vector<CoordLoad>& loads);
std::optional<double> loadImbalance(
    const OwnerLoads& loads);  // the same figure, from its loaded coordinates

// One place where a plan's owner loads are judged (docs/plan.md §6,
// owner-imbalance): a batch, or a group's batches summed per coordinate
// (each batch restarts the greedy at zero). Only places that could keep
// every coordinate busy are judged: at least as many owned params as
// replicate coordinates, at least two coordinates, some load. A batch of
// one param over two coordinates is idle on one by necessity, not unbalanced.
struct OwnerImbalance {
    int group = -1;      // position in the groups
    int batch = -1;      // position in Group::batches; -1: the group over its batches summed
    double ratio = 1.0;  // max/mean, loadImbalance of the loads judged
    int64_t minLoad = 0;
    int64_t maxLoad = 0;
    size_t coordinates = 0;
    size_t ownedParams = 0;

    bool overGroup() const { return batch < 0; }
    // What the owner-imbalance warning flags: an idle coordinate while another
    // works, or max/mean above `maxOverMean`.
    bool unbalanced(double maxOverMean) const { return minLoad <= 0 || ratio > maxOverMean; }
};

// Every judged place of `group` (at `position` in the plan's groups): its
// batches in order, then the group over its batches (two batches or more).
std::vector<OwnerImbalance> ownerImbalances(const Group& group, int position);
// Every judged place of `groups`, group by group.
std::vector<OwnerImbalance> ownerImbalances(const std::vector<Group>& groups);
// A plan's worst owner imbalance, the one figure the diagnostics, the status
// bar, the plan comparison and the report give: the judged place with the
// highest max/mean (the first on ties); nullopt when no place is judged.
std::optional<OwnerImbalance> worstOwnerImbalance(const std::vector<Group>& groups);

// The per-rank Newton–Schulz load: the rank that orthogonalises the most
// elements against the mean over every rank (those computing nothing
// included). With one computing rank per shard group by design, this, not the
// owner imbalance between replicate coordinates, is what the step waits for.
struct RankComputeImbalance {
    double ratio = 1.0;  // max/mean of RankOwnership::computedNumel
    int busiestRank = -1;
    int64_t busiestNumel = 0;
    int64_t totalNumel = 0;
    size_t ranks = 0;
    size_t computingRanks = 0;  // ranks with any Newton–Schulz work
};
// nullopt when no rank computes anything.
std::optional<RankComputeImbalance> rankComputeImbalance(const std::vector<RankOwnership>& ranks);

}  // namespace hsdp
