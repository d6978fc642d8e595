// SPDX-License-Identifier: Apache-2.0
#include "cost/collective_cost.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hsdp {

int binomialTreeDepth(int ranks) {
    int depth = 0;
    while ((int64_t{1} << depth) < ranks) ++depth;
    return depth;
}

double busBandwidthFactor(CollectiveOp op, int ranks, CollectiveAlgorithms algorithms) {
    if (algorithms == CollectiveAlgorithms::Gloo && op == CollectiveOp::Broadcast)
        return binomialTreeDepth(ranks);
    return busBandwidthFactor(op, ranks);
}

int collectiveSteps(CollectiveOp op, int ranks, CollectiveAlgorithms algorithms) {
    if (algorithms == CollectiveAlgorithms::Gloo && op == CollectiveOp::Broadcast)
        return binomialTreeDepth(ranks);
    return ringSteps(op, ranks);
}

int railsOf(const std::vector<int>& groupRanks, const Cluster& cluster) {
    if (cluster.devicesPerNode <= 1) return 1;
    std::vector<int> nodes;
    nodes.reserve(groupRanks.size());
    for (int rank : groupRanks) nodes.push_back(cluster.nodeOf(rank));
    std::sort(nodes.begin(), nodes.end());
    int most = 0;
    for (size_t i = 0; i < nodes.size();) {
        size_t j = i;
        while (j < nodes.size() && nodes[j] == nodes[i]) ++j;
        most = std::max(most, int(j - i));
        i = j;
    }
    return std::max(1, std::min(most, cluster.devicesPerNode));
}

CollectiveCost collectiveCost(CollectiveOp op, int64_t sizeBytes,
                              const std::vector<int>& groupRanks, const Cluster& cluster) {
    if (sizeBytes < 0)
        throw std::invalid_argument("a collective of " + std::to_string(sizeBytes) +
                                    " bytes: expected a size >= 0");
    CollectiveCost cost;
    cost.level = cluster.linkLevelOf(groupRanks);  // checks every rank is in the cluster
    const int n = static_cast<int>(groupRanks.size());
    if (n <= 1 || (sizeBytes == 0 && op != CollectiveOp::Barrier)) return cost;
    const LinkSpec& link = cluster.link(cost.level, traceNameOf(op));
    cost.steps = collectiveSteps(op, n, cluster.algorithms);
    cost.busBytes = static_cast<double>(sizeBytes) * busBandwidthFactor(op, n, cluster.algorithms);
    cost.latencySeconds = cost.steps * link.stepLatency(n);
    cost.rails = cost.level == LinkLevel::InterNode ? railsOf(groupRanks, cluster) : 1;
    double bandwidth = link.effectiveBandwidth() * cost.rails;
    if (cost.rails > 1)  // the ring's links inside each node carry it too
        bandwidth = std::min(
            bandwidth, cluster.link(LinkLevel::IntraNode, traceNameOf(op)).effectiveBandwidth());
    cost.bandwidthSeconds = cost.busBytes / bandwidth;
    cost.seconds = cost.latencySeconds + cost.bandwidthSeconds;
    return cost;
}

double collectiveSeconds(CollectiveOp op, int64_t sizeBytes, const std::vector<int>& groupRanks,
                         const Cluster& cluster) {
    return collectiveCost(op, sizeBytes, groupRanks, cluster).seconds;
}

}  // namespace hsdp
