// SPDX-License-Identifier: Apache-2.0
#include "runtime/group_set.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace hsdp {
namespace {

std::vector<int> validated(std::vector<int> ranks, int worldSize) {
    if (ranks.empty()) throw std::invalid_argument("runWorld: an empty process group was declared");
    std::sort(ranks.begin(), ranks.end());
    if (ranks.front() < 0 || ranks.back() >= worldSize)
        throw std::invalid_argument("runWorld: group " + groupKey(ranks) +
                                    " has a rank outside 0.." + std::to_string(worldSize - 1));
    if (std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end())
        throw std::invalid_argument("runWorld: group " + groupKey(ranks) + " lists a rank twice");
    return ranks;
}

}  // namespace

std::vector<std::vector<int>> normalizeGroups(const std::vector<std::vector<int>>& declared,
                                              int worldSize, bool withWorld) {
    std::vector<int> world(static_cast<size_t>(worldSize));
    std::iota(world.begin(), world.end(), 0);
    std::vector<std::vector<int>> groups;
    if (withWorld) groups.push_back(world);
    for (const auto& group : declared) {
        auto ranks = validated(group, worldSize);
        if (std::find(groups.begin(), groups.end(), ranks) == groups.end())
            groups.push_back(std::move(ranks));
    }
    return groups;
}

std::string groupKey(const std::vector<int>& sortedRanks) {
    std::string key;
    for (size_t i = 0; i < sortedRanks.size(); ++i)
        key += (i ? "," : "") + std::to_string(sortedRanks[i]);
    return key;
}

long estimateFileDescriptors(const std::vector<std::vector<int>>& groups,
                             const std::vector<int>& local) {
    std::vector<int> sortedLocal = local;
    std::sort(sortedLocal.begin(), sortedLocal.end());
    long connected = 0;
    long largestSetup = 0;
    for (const auto& group : groups) {
        const long n = static_cast<long>(group.size());
        long here = n;
        if (!local.empty())
            here = std::count_if(group.begin(), group.end(), [&](int r) {
                return std::binary_search(sortedLocal.begin(), sortedLocal.end(), r);
            });
        connected += here * (n - 1);
        largestSetup = std::max(largestSetup, here * (n - 1));
    }
    return connected + largestSetup;
}

}  // namespace hsdp
