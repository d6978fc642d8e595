// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cluster/cluster.h"
#include "types/collective_op.h"

namespace hsdp {

// The bus factor and steps for the algorithms a cluster runs
// (Cluster::algorithms): NCCL's ring as types/collective_op.h has them; Gloo's differ only for
// broadcast, a binomial tree from the root: ceil(log2 n) steps, and the root sends the whole buffer
// to each of its ceil(log2 n) children one after another (factor ceil(log2 n)).
double busBandwidthFactor(CollectiveOp op, int ranks, CollectiveAlgorithms algorithms);
int collectiveSteps(CollectiveOp op, int ranks, CollectiveAlgorithms algorithms);
// ceil(log2 n): the depth of a binomial tree over n ranks (0 for n <= 1).
int binomialTreeDepth(int ranks);

// A predicted collective time and its parts.
struct CollectiveCost {
    double seconds = 0;                      // latencySeconds + bandwidthSeconds
    double latencySeconds = 0;               // steps x step latency of `level` (for the op)
    double bandwidthSeconds = 0;             // size x factor / (bandwidth x efficiency of `level`)
    LinkLevel level = LinkLevel::IntraNode;  // the slowest level the group spans
    int steps = 0;
    double busBytes = 0;  // size x factor: what each rank sends over the ring
    int rails = 1;        // inter-node: the NICs of a node it crosses over at once (railsOf)
};

// Rails: every GPU of a node has its own NIC, so a group with g members on
// one node crosses between nodes over g NICs at once (NCCL runs one ring per
// NIC): the most members the group has on one node, at least 1.
int railsOf(const std::vector<int>& groupRanks, const Cluster& cluster);

// The predicted time of one collective (docs/cost-model.md):
//   seconds = steps(op, n) x latency + size x factor(op, n) / (bandwidth x efficiency)
// over the slowest link level the group spans; between nodes the bandwidth is
// one NIC's times the group's rails (railsOf), at most the intra-node link's. `sizeBytes` is the
// collective's size as NCCL-tests counts it, the whole buffer, not one rank's
// block: all_gather(_v) the gathered output (n x each rank's block),
// reduce_scatter the input (n x each rank's output block), all_reduce and
// broadcast the buffer, all_to_all one rank's send buffer (n x the block for
// each peer), all_to_all_v n/(n-1) x the most any member sends or receives
// (its own block left out), so the bus bytes are that most; barrier ignores it. A group of one rank
// (or none) costs 0, and so does a collective of 0 bytes other than a barrier (the runner skips
// it). Throws std::invalid_argument for a negative size, std::out_of_range for a rank outside the
// cluster.
CollectiveCost collectiveCost(CollectiveOp op, int64_t sizeBytes,
                              const std::vector<int>& groupRanks, const Cluster& cluster);

// collectiveCost(...).seconds.
double collectiveSeconds(CollectiveOp op, int64_t sizeBytes, const std::vector<int>& groupRanks,
                         const Cluster& cluster);

}  // namespace hsdp
