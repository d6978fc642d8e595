// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

namespace hsdp {

struct PlanResult;

// Which node of the chosen cluster each rank runs on, as the cost model
// places them (the cluster grown to the plan's world), so the mesh view can
// outline the nodes: a mesh dim whose groups cross them pays the slower link.
struct NodeMap {
    std::vector<int> nodeOfRank;  // empty: no cluster chosen, or it cannot hold the world
    QString clusterName;
    int devicesPerNode = 0;
    int nodes = 0;

    bool empty() const { return nodeOfRank.empty(); }
    // The rank's node, or -1 (no map, or a rank outside it).
    int nodeOf(int rank) const {
        return rank >= 0 && static_cast<size_t>(rank) < nodeOfRank.size()
                   ? nodeOfRank[static_cast<size_t>(rank)]
                   : -1;
    }
};

// The nodes of the plan's prediction; empty without one.
NodeMap nodeMapOf(const PlanResult& plan);

}  // namespace hsdp
