// SPDX-License-Identifier: Apache-2.0
#include "plan/detail/rank_ownership.h"

#include <algorithm>

#include "plan/ownership.h"
#include "plan/replica_count.h"

namespace hsdp {

namespace {

// What each reduced replicate coordinate (row-major index) owns in one group.
struct CoordOwnership {
    std::vector<std::vector<int>> params;
    std::vector<int64_t> numel;
};

CoordOwnership ownershipByCoordinate(const Group& group, const std::vector<int64_t>& sizes,
                                     const std::vector<ParamSpec>& specs) {
    CoordOwnership out;
    auto count = static_cast<size_t>(coordinateCount(sizes));
    out.params.resize(count);
    out.numel.assign(count, 0);
    for (const Batch& batch : group.batches) {
        for (const auto& [param, coord] : batch.owner) {
            auto c = static_cast<size_t>(coordinateIndex(coord, sizes));
            out.params[c].push_back(param);
            out.numel[c] += specs.at(static_cast<size_t>(param)).numel();
        }
    }
    return out;
}

// Walks the group's mesh positions row-major (an odometer, no divisions) and
// hands each rank what its reduced replicate coordinate owns.
void addGroupOwnership(const Group& group, const std::vector<ParamSpec>& specs,
                       std::optional<int64_t> replicaCount, std::vector<RankOwnership>& ranks) {
    auto sizes = replicateSizes(group, replicaCount);
    auto byCoord = ownershipByCoordinate(group, sizes, specs);
    Coord meshCoord(group.meshShape.size(), 0);
    for (int rank : group.meshRanks) {
        const auto c = static_cast<size_t>(
            replicateIndex(meshCoord, group.replicateMeshDims, sizes, replicaCount));
        if (rank >= 0 && static_cast<size_t>(rank) < ranks.size() && !byCoord.params[c].empty()) {
            auto& owned = ranks[static_cast<size_t>(rank)];
            owned.owned.insert(owned.owned.end(), byCoord.params[c].begin(),
                               byCoord.params[c].end());
            owned.ownedNumel += byCoord.numel[c];
        }
        for (size_t d = meshCoord.size(); d-- > 0;) {
            if (++meshCoord[d] < group.meshShape[d]) break;
            meshCoord[d] = 0;
        }
    }
}

}  // namespace

std::vector<RankOwnership> rankOwnership(const std::vector<Group>& groups,
                                         const std::vector<ParamSpec>& specs, int worldSize,
                                         std::optional<int64_t> replicaCount) {
    std::vector<RankOwnership> ranks(static_cast<size_t>(std::max(worldSize, 0)));
    for (size_t r = 0; r < ranks.size(); ++r) ranks[r].rank = static_cast<int>(r);
    for (const Group& group : groups) addGroupOwnership(group, specs, replicaCount, ranks);
    for (auto& rank : ranks) std::sort(rank.owned.begin(), rank.owned.end());
    return ranks;
}

}  // namespace hsdp
