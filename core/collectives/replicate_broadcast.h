// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/world.h"
#include "types/mesh.h"

namespace hsdp {

// One payload of a hierarchical broadcast: the same byte size on every member;
// the root coordinate's copy holds the data, the others receive it.
struct BroadcastItem {
    int param = -1;
    Coord root;  // the root's coordinate along each dim of BroadcastSetup::dims
    std::vector<std::byte>* payload = nullptr;
};

struct BroadcastSetup {
    const Mesh* mesh = nullptr;
    Coord coord;            // this rank's mesh coordinate
    std::vector<int> dims;  // mesh dims to broadcast over, outermost first
    int64_t alignmentBytes = 512;
    int64_t capBytes = 0;   // <= 0: no cap
    CollectiveLabel label;  // phase/step/group/batch/mesh; the rest is filled in
};

// Broadcasts every item from its root to all coordinates spanned by `dims`
// (the other coordinates fixed at this rank's): last dim first among the
// coordinates whose earlier dims equal the root's, then outward, so each step
// doubles the holders along one dim. At every step, the items of one line
// (process group) with the same root travel fused in aligned buffers of at
// most `capBytes`. Every member passes the same items in the same order.
// Used for the replica broadcast (phase "replica-broadcast", replicate dims)
// and the update broadcast (phase "update-broadcast", shard dims).
void hierarchicalBroadcast(RankContext& ctx, const BroadcastSetup& setup,
                           const std::vector<BroadcastItem>& items);

// Byte ranges of a fused stream cut into chunks of at most `cap` bytes.
struct Chunk {
    int64_t begin = 0;
    int64_t end = 0;
};
std::vector<Chunk> chunksOf(int64_t total, int64_t cap);

}  // namespace hsdp
