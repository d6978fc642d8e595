// SPDX-License-Identifier: Apache-2.0
#include "cluster/cluster.h"

#include <cmath>
#include <sstream>

#include <stdexcept>

namespace hsdp {

std::string_view linkLevelName(LinkLevel level) {
    return level == LinkLevel::IntraNode ? "intra_node" : "inter_node";
}

std::string_view collectiveAlgorithmsName(CollectiveAlgorithms algorithms) {
    return algorithms == CollectiveAlgorithms::Gloo ? "gloo" : "nccl_ring";
}

int Cluster::nodeOf(int rank) const {
    if (rank < 0 || rank >= static_cast<int>(rankToNode.size()))
        throw std::out_of_range("rank " + std::to_string(rank) + " is not a rank of cluster \"" +
                                name + "\" (ranks 0.." + std::to_string(rankToNode.size()) +
                                " exclusive)");
    return rankToNode[static_cast<size_t>(rank)];
}

LinkLevel Cluster::linkLevelOf(const std::vector<int>& ranks) const {
    if (ranks.empty()) return LinkLevel::IntraNode;
    const int first = nodeOf(ranks.front());
    bool spans = false;
    for (int rank : ranks) spans = spans || nodeOf(rank) != first;  // checks every rank
    return spans ? LinkLevel::InterNode : LinkLevel::IntraNode;
}

const LinkSpec& Cluster::link(LinkLevel level) const {
    return level == LinkLevel::IntraNode ? intraNode : interNode;
}

const LinkSpec& Cluster::link(LinkLevel level, std::string_view op) const {
    const auto& byOp = level == LinkLevel::IntraNode ? intraNodeByOp : interNodeByOp;
    const auto it = byOp.find(op);
    return it != byOp.end() ? it->second : link(level);
}

std::vector<int> defaultRankToNode(int nodes, int devicesPerNode) {
    std::vector<int> map;
    map.reserve(static_cast<size_t>(nodes) * static_cast<size_t>(devicesPerNode));
    for (int node = 0; node < nodes; ++node)
        for (int device = 0; device < devicesPerNode; ++device) map.push_back(node);
    return map;
}

Cluster withNodes(const Cluster& cluster, int nodes) {
    if (nodes < 1) throw std::invalid_argument("a cluster needs at least one node");
    Cluster out = cluster;
    out.nodes = nodes;
    out.rankToNode = defaultRankToNode(nodes, cluster.devicesPerNode);
    return out;
}

std::string Cluster::trustText() const {
    if (validation.errorPercent < 0) return "not validated";
    std::ostringstream out;
    out << "\u00b1 " << std::lround(validation.errorPercent) << " %";
    if (validation.piecesOnly) out << " on its pieces only";
    if (!validation.basis.empty()) out << " (" << validation.basis << ")";
    return out.str();
}

std::string Cluster::trustShortText() const {
    if (validation.errorPercent < 0) return "not validated";
    const std::string error =
        "\u00b1 " + std::to_string(std::lround(validation.errorPercent)) + " %";
    // Checked on its pieces only: "pieces" first, so the figure is read as
    // theirs, not as the step's error bar ("2.09 s ± 3 % (pieces)" was).
    return validation.piecesOnly ? "(pieces " + error + ")" : error;
}

}  // namespace hsdp
