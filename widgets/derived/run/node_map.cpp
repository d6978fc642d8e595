// SPDX-License-Identifier: Apache-2.0
#include "derived/run/node_map.h"

#include <stdexcept>

#include "cost/plan_cost.h"
#include "derived/plan/plan_result.h"
#include "derived/run/plan_prediction.h"

namespace hsdp {

NodeMap nodeMapOf(const PlanResult& plan) {
    NodeMap map;
    if (!plan.prediction || !plan.prediction->cluster || !plan.plan) return map;
    // The costed cluster when there is one; otherwise grown here the same way,
    // so a plan whose costing failed still shows where its ranks would run.
    Cluster cluster;
    if (plan.prediction->cost) {
        cluster = plan.prediction->cost->cluster;
    } else {
        try {
            cluster = clusterForWorld(*plan.prediction->cluster, plan.plan->worldSize);
        } catch (const std::exception&) {
            return map;  // a cluster file too small for the world: nothing to outline
        }
    }
    map.nodeOfRank = cluster.rankToNode;
    map.clusterName = QString::fromStdString(cluster.name);
    map.devicesPerNode = cluster.devicesPerNode;
    map.nodes = cluster.nodes;
    return map;
}

}  // namespace hsdp
