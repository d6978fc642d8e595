// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace hsdp {

// The collectives a step runs and its trace records (TraceEvent::op in
// runtime/trace.h), each costed as NCCL's ring algorithm runs it.
enum class CollectiveOp {
    AllGather,
    AllGatherV,
    ReduceScatter,
    AllReduce,
    Broadcast,
    AllToAll,
    AllToAllV,  // the all-to-all gather strategy's exchange: each member its own block sizes
    Barrier
};

// One row of the table of collective ops: everything the engine, the cost
// model, the cluster reader, the trace and the captions know about an op.
struct CollectiveOpInfo {
    CollectiveOp op;
    std::string_view name;  // the trace's spelling, "all_gather"; a cluster's by_op key
    // NCCL-tests' bus-bandwidth factor is busFactorNumerator x (n-1)/n, or 1
    // for a broadcast, 0 for a barrier (busFactorNumerator 0, oneToAll false).
    int busFactorNumerator;
    bool oneToAll;             // broadcast: the root's whole buffer crosses each link once
    int ringStepsPerRank;      // ring steps per rank beyond the first: steps = this x (n-1)
    std::string_view meaning;  // what it does to the data, for captions: "sums the partial values"
};

// Every op, in the order the trace's palette colours them.
std::span<const CollectiveOpInfo> collectiveOps();
const CollectiveOpInfo& collectiveOpInfo(CollectiveOp op);

// The op a trace name stands for: nullopt for any name not in the table.
std::optional<CollectiveOp> collectiveOpNamed(std::string_view traceOp);
std::string_view traceNameOf(CollectiveOp op);

// NCCL-tests' bus-bandwidth factor of `op` over `ranks` ranks: busbw = algbw x
// factor, so the bytes one rank sends in the ring (its wire bytes) are size x
// factor. all_gather, all_gather_v, reduce_scatter, all_to_all(_v) (n-1)/n;
// all_reduce 2(n-1)/n; broadcast 1; barrier 0. 0 for a group of one rank.
double busBandwidthFactor(CollectiveOp op, int ranks);
// The same for a trace's op name; 0 for a name not in the table.
double busBandwidthFactor(std::string_view traceOp, int ranks);

// The bytes one member sends over the ring for a collective of `sizeBytes`
// (NCCL-tests' size: the whole buffer, gathered or reduced).
double wireBytes(CollectiveOp op, double sizeBytes, int ranks);

// Steps of the ring algorithm, each paying the link's latency once:
// all_reduce and barrier 2(n-1), every other op n-1. 0 for one rank.
int ringSteps(CollectiveOp op, int ranks);

}  // namespace hsdp
