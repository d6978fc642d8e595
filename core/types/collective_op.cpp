// SPDX-License-Identifier: Apache-2.0
#include "types/collective_op.h"

#include <array>

namespace hsdp {

namespace {

// The palette's order (widgets' trace timeline colours ops by position).
constexpr std::array<CollectiveOpInfo, 8> kOps = {{
    {CollectiveOp::AllGather, "all_gather", 1, false, 1,
     "concatenates the shards so every rank holds the whole tensor"},
    {CollectiveOp::AllGatherV, "all_gather_v", 1, false, 1,
     "concatenates the shards so every rank holds the whole tensor"},
    {CollectiveOp::Broadcast, "broadcast", 0, true, 1, "copies the root's buffer to every rank"},
    {CollectiveOp::AllReduce, "all_reduce", 2, false, 2, "sums the partial values"},
    {CollectiveOp::ReduceScatter, "reduce_scatter", 1, false, 1,
     "sums and keeps one chunk per rank"},
    {CollectiveOp::AllToAll, "all_to_all", 1, false, 1, "moves the shard to another tensor dim"},
    {CollectiveOp::AllToAllV, "all_to_all_v", 1, false, 1, "sends each member its own blocks"},
    {CollectiveOp::Barrier, "barrier", 0, false, 2, "waits for every member"},
}};

}  // namespace

std::span<const CollectiveOpInfo> collectiveOps() {
    return kOps;
}

const CollectiveOpInfo& collectiveOpInfo(CollectiveOp op) {
    for (const CollectiveOpInfo& info : kOps)
        if (info.op == op) return info;
    return kOps.back();  // unreachable: every enumerator has a row (tst_collective_cost)
}

std::optional<CollectiveOp> collectiveOpNamed(std::string_view traceOp) {
    for (const CollectiveOpInfo& info : kOps)
        if (info.name == traceOp) return info.op;
    return std::nullopt;
}

std::string_view traceNameOf(CollectiveOp op) {
    return collectiveOpInfo(op).name;
}

double busBandwidthFactor(CollectiveOp op, int ranks) {
    if (ranks <= 1) return 0;
    const CollectiveOpInfo& info = collectiveOpInfo(op);
    if (info.oneToAll) return 1;
    return info.busFactorNumerator * static_cast<double>(ranks - 1) / ranks;
}

double busBandwidthFactor(std::string_view traceOp, int ranks) {
    const auto op = collectiveOpNamed(traceOp);
    return op ? busBandwidthFactor(*op, ranks) : 0;
}

double wireBytes(CollectiveOp op, double sizeBytes, int ranks) {
    return sizeBytes * busBandwidthFactor(op, ranks);
}

int ringSteps(CollectiveOp op, int ranks) {
    if (ranks <= 1) return 0;
    return collectiveOpInfo(op).ringStepsPerRank * (ranks - 1);
}

}  // namespace hsdp
