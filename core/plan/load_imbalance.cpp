// SPDX-License-Identifier: Apache-2.0
#include "plan/load_imbalance.h"

#include <algorithm>

namespace hsdp {

std::optional<double> loadImbalance(const std::vector<int64_t>& numels) {
    if (numels.empty()) return std::nullopt;
    double sum = 0;
    for (int64_t n : numels) sum += static_cast<double>(n);
    if (sum <= 0) return std::nullopt;
    const int64_t heaviest = *std::max_element(numels.begin(), numels.end());
    return static_cast<double>(heaviest) * static_cast<double>(numels.size()) / sum;
}

std::optional<double> loadImbalance(const OwnerLoads& loads) {
    if (loads.empty()) return std::nullopt;
    double sum = 0;  // the zero tail adds nothing
    for (int64_t n : loads.leading()) sum += static_cast<double>(n);
    if (sum <= 0) return std::nullopt;
    return static_cast<double>(loads.max()) * static_cast<double>(loads.size()) / sum;
}

std::optional<double> loadImbalance(const std::vector<CoordLoad>& loads) {
    std::vector<int64_t> numels;
    numels.reserve(loads.size());
    for (const auto& l : loads) numels.push_back(l.numel);
    return loadImbalance(numels);
}

namespace {

// The place judged, or nullopt where the rule does not judge it.
std::optional<OwnerImbalance> judged(const OwnerLoads& loads, size_t owned, int group, int batch) {
    if (loads.size() < 2 || owned < loads.size() || loads.max() <= 0) return std::nullopt;
    OwnerImbalance out;
    out.group = group;
    out.batch = batch;
    out.ratio = loadImbalance(loads).value_or(1.0);
    out.minLoad = loads.min();
    out.maxLoad = loads.max();
    out.coordinates = loads.size();
    out.ownedParams = owned;
    return out;
}

}  // namespace

std::vector<OwnerImbalance> ownerImbalances(const Group& group, int position) {
    std::vector<OwnerImbalance> out;
    std::vector<int64_t> total;
    size_t groupOwned = 0;
    for (size_t b = 0; b < group.batches.size(); ++b) {
        const Batch& batch = group.batches[b];
        const OwnerLoads& loads = batch.loads;
        total.resize(std::max(total.size(), loads.size()), 0);
        for (size_t c = 0; c < loads.leading().size(); ++c) total[c] += loads.leading()[c];
        groupOwned += batch.owner.size();
        if (auto place = judged(loads, batch.owner.size(), position, int(b))) out.push_back(*place);
    }
    if (group.batches.size() < 2) return out;
    if (auto place = judged(OwnerLoads(std::move(total)), groupOwned, position, -1))
        out.push_back(*place);
    return out;
}

std::vector<OwnerImbalance> ownerImbalances(const std::vector<Group>& groups) {
    std::vector<OwnerImbalance> out;
    for (size_t g = 0; g < groups.size(); ++g) {
        auto places = ownerImbalances(groups[g], int(g));
        out.insert(out.end(), places.begin(), places.end());
    }
    return out;
}

std::optional<OwnerImbalance> worstOwnerImbalance(const std::vector<Group>& groups) {
    std::optional<OwnerImbalance> worst;
    for (const OwnerImbalance& place : ownerImbalances(groups))
        if (!worst || place.ratio > worst->ratio) worst = place;
    return worst;
}

std::optional<RankComputeImbalance> rankComputeImbalance(const std::vector<RankOwnership>& ranks) {
    RankComputeImbalance out;
    out.ranks = ranks.size();
    for (const RankOwnership& rank : ranks) {
        out.totalNumel += rank.computedNumel;
        out.computingRanks += rank.computedNumel > 0;
        if (rank.computedNumel > out.busiestNumel) {
            out.busiestNumel = rank.computedNumel;
            out.busiestRank = rank.rank;
        }
    }
    if (out.totalNumel <= 0) return std::nullopt;
    out.ratio = static_cast<double>(out.busiestNumel) * static_cast<double>(out.ranks) /
                static_cast<double>(out.totalNumel);
    return out;
}

}  // namespace hsdp
