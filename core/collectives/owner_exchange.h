// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/fused_gather.h"
#include "runtime/memory_ledger.h"
#include "runtime/world.h"
#include "tensor/tensor.h"
#include "types/mesh.h"

namespace hsdp {

// The all-to-all gather strategy (types/gather_strategy.h): over the shard
// group as one process group (every shard mesh dim flattened, members in
// ascending global rank), each member sends the rank that computes a param
// only its own piece of it, and that rank sends each member back only its
// slice of the update. Pieces travel in the param's dtype, slices in fp32,
// each padded to the alignment as the fused slots are; inside the block for
// one peer the params keep batch order. Uneven, empty, strided and nested
// shards need nothing special: a member's piece is what its layout says it
// holds (shardLayout), and the computing rank puts it where that layout says.

struct OwnerExchangeSetup {
    const Mesh* mesh = nullptr;
    Coord coord;                 // this rank's mesh coordinate
    std::vector<int> shardDims;  // the mesh dims flattened into the exchange group
    int64_t alignmentBytes = 512;
    CollectiveLabel label;  // phase/step/group/batch/mesh; params and segments are filled in
};

// One param of the exchange; every member passes the same ones in the same order.
struct OwnerExchangeItem {
    GatherItem param;    // `local` is this rank's shard (gather) or unused (return)
    Coord computeShard;  // the computing rank's coordinate along setup.shardDims
};

// Who is in the exchange and what each holds: the same on every member.
struct OwnerExchangeGroup {
    std::vector<int> ranks;                      // ascending global ranks
    int me = 0;                                  // this rank's position in `ranks`
    std::vector<int> computer;                   // [item] position of its computing rank
    std::vector<std::vector<ShardLayout>> held;  // [item][member] what it holds

    bool computesHere(size_t item) const { return computer[item] == me; }
};
OwnerExchangeGroup ownerExchangeGroup(const OwnerExchangeSetup& setup,
                                      const std::vector<OwnerExchangeItem>& items);

// Bytes of each block, [from][to], under either direction: a piece (gather,
// the param's dtype) or an update slice (return, fp32), padded. Pure, so the
// tests and the buffer view share the runner's geometry.
enum class ExchangeDirection { ToComputer, FromComputer };
std::vector<std::vector<int64_t>> exchangeBlockBytes(const OwnerExchangeGroup& group,
                                                     const std::vector<OwnerExchangeItem>& items,
                                                     int64_t alignmentBytes,
                                                     ExchangeDirection direction);

// Each member's bytes sent and received in one direction: the row and column
// sums of exchangeBlockBytes, without its members x members matrix (a
// 1,024-member group's is 8 MiB, built once per member it was 8 GiB of work).
struct ExchangeTotals {
    std::vector<int64_t> sent, received;  // [member], its own block included
    std::vector<int64_t> own;             // [member] the block it keeps (no wire)
};
ExchangeTotals exchangeTotals(const OwnerExchangeGroup& group,
                              const std::vector<OwnerExchangeItem>& items, int64_t alignmentBytes,
                              ExchangeDirection direction);

// Gather: per item, the full fp32 matrix where this rank computes it (an
// empty tensor elsewhere), counted on the memory ledger while held. One alltoallv.
struct OwnerMatrices {
    std::vector<Tensor> full;
    std::vector<MemoryCharge> charges;
};
OwnerMatrices gatherToComputers(RankContext& ctx, const OwnerExchangeSetup& setup,
                                const OwnerExchangeGroup& group,
                                const std::vector<OwnerExchangeItem>& items);

// Return: `updates[i]` is the full fp32 update where this rank computes item
// i (ignored elsewhere); the result is, per item, this rank's slice of it.
// One alltoallv.
std::vector<Tensor> returnUpdateSlices(RankContext& ctx, const OwnerExchangeSetup& setup,
                                       const OwnerExchangeGroup& group,
                                       const std::vector<OwnerExchangeItem>& items,
                                       const std::vector<Tensor>& updates);

}  // namespace hsdp
