// SPDX-License-Identifier: Apache-2.0
#include "collectives/replicate_broadcast.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "runtime/memory_ledger.h"
#include "tensor/packing.h"

namespace hsdp {

std::vector<Chunk> chunksOf(int64_t total, int64_t cap) {
    std::vector<Chunk> chunks;
    if (cap <= 0) cap = std::max<int64_t>(total, 1);
    for (int64_t b = 0; b < total; b += cap) chunks.push_back({b, std::min(total, b + cap)});
    return chunks;
}

namespace {

// The trace segments of the part [chunk.begin, chunk.end) of a fused stream.
std::vector<BufferSegment> chunkSegments(const PackLayout& pack, const std::vector<int>& params,
                                         const Chunk& chunk, std::vector<int>& chunkParams) {
    std::vector<BufferSegment> segs;
    for (size_t i = 0; i < params.size(); ++i) {
        const int64_t b = pack.offset[i], payloadEnd = b + pack.length[i], e = b + pack.capacity[i];
        const int64_t lo = std::max(b, chunk.begin), hi = std::min(e, chunk.end);
        if (lo >= hi) continue;
        const int64_t payload = std::max<int64_t>(0, std::min(hi, payloadEnd) - lo);
        segs.push_back({params[i], lo - chunk.begin, payload, (hi - lo) - payload});
        chunkParams.push_back(params[i]);
    }
    return segs;
}

// One fused broadcast of `group` (items of one line, one root) in capped chunks.
void broadcastFused(Communicator& comm, int rootGroupRank, const BroadcastSetup& setup, int dim,
                    const std::vector<const BroadcastItem*>& group) {
    std::vector<int64_t> lengths, capacities;
    std::vector<int> params;
    for (const auto* item : group) {
        const auto bytes = static_cast<int64_t>(item->payload->size());
        lengths.push_back(bytes);
        capacities.push_back(paddedElements(bytes, setup.alignmentBytes, 1));
        params.push_back(item->param);
    }
    const PackLayout pack = packLayout(lengths, capacities);
    if (pack.total == 0) return;
    auto fused = poisonBuffer(pack.total);
    const MemoryCharge fusedCharge(MemoryKind::BroadcastBuffer, int64_t(fused.size()));
    const bool root = comm.rank() == rootGroupRank;
    // An empty payload (an empty shard) may have no storage at all: memcpy
    // from or to its null pointer is undefined even for zero bytes.
    if (root)
        for (size_t i = 0; i < group.size(); ++i)
            if (pack.length[i] > 0)
                std::memcpy(fused.data() + pack.offset[i], group[i]->payload->data(),
                            size_t(pack.length[i]));
    for (const auto& chunk : chunksOf(pack.total, setup.capBytes)) {
        CollectiveLabel label = setup.label;
        label.meshDim = dim;
        label.segments = chunkSegments(pack, params, chunk, label.params);
        comm.broadcast(fused.data() + chunk.begin, size_t(chunk.end - chunk.begin), rootGroupRank,
                       label);
    }
    if (!root)
        for (size_t i = 0; i < group.size(); ++i)
            if (pack.length[i] > 0)
                std::memcpy(group[i]->payload->data(), fused.data() + pack.offset[i],
                            size_t(pack.length[i]));
}

}  // namespace

void hierarchicalBroadcast(RankContext& ctx, const BroadcastSetup& setup,
                           const std::vector<BroadcastItem>& items) {
    const Mesh& mesh = *setup.mesh;
    for (int i = static_cast<int>(setup.dims.size()) - 1; i >= 0; --i) {
        const int dim = setup.dims[size_t(i)];
        if (mesh.shape[size_t(dim)] <= 1) continue;
        // Items whose root agrees with this line on the earlier dims, by root.
        std::map<int64_t, std::vector<const BroadcastItem*>> byRoot;
        for (const auto& item : items) {
            bool onLine = true;
            for (int j = 0; j < i && onLine; ++j)
                onLine = item.root[size_t(j)] == setup.coord[size_t(setup.dims[size_t(j)])];
            if (onLine) byRoot[item.root[size_t(i)]].push_back(&item);
        }
        if (byRoot.empty()) continue;
        const auto line = mesh.groupAlong(dim, setup.coord);
        Communicator& comm = ctx.group(line);
        for (const auto& [rootCoord, group] : byRoot) {
            const int rootRank = line.at(size_t(rootCoord));
            const auto& ranks = comm.ranks();
            const int rootGroupRank =
                int(std::find(ranks.begin(), ranks.end(), rootRank) - ranks.begin());
            broadcastFused(comm, rootGroupRank, setup, dim, group);
        }
    }
}

}  // namespace hsdp
