// SPDX-License-Identifier: Apache-2.0
#include "collectives/owner_exchange.h"

#include <algorithm>

#include "runtime/memory_ledger.h"
#include "tensor/dtype_codec.h"
#include "tensor/packing.h"
#include "types/geometry.h"

namespace hsdp {

OwnerExchangeGroup ownerExchangeGroup(const OwnerExchangeSetup& setup,
                                      const std::vector<OwnerExchangeItem>& items) {
    const Mesh& mesh = *setup.mesh;
    OwnerExchangeGroup group;
    group.ranks = mesh.groupOver(setup.shardDims, setup.coord);
    std::sort(group.ranks.begin(), group.ranks.end());
    const int myRank = mesh.rankAt(setup.coord);
    std::vector<Coord> coords;
    for (size_t q = 0; q < group.ranks.size(); ++q) {
        coords.push_back(mesh.coordinateOf(group.ranks[q]).value());
        if (group.ranks[q] == myRank) group.me = int(q);
    }
    for (const auto& item : items) {
        Coord computeCoord = setup.coord;
        for (size_t j = 0; j < setup.shardDims.size(); ++j)
            computeCoord[size_t(setup.shardDims[j])] = item.computeShard.at(j);
        const auto at =
            std::lower_bound(group.ranks.begin(), group.ranks.end(), mesh.rankAt(computeCoord));
        group.computer.push_back(int(at - group.ranks.begin()));
        std::vector<ShardLayout> held;
        for (const auto& c : coords)
            held.push_back(shardLayout(item.param.shape, item.param.placements, mesh.shape, c));
        group.held.push_back(std::move(held));
    }
    return group;
}

namespace {

// Calls visit(from, to, bytes) for every block of the exchange in `direction`.
template <typename Visit>
void forEachBlock(const OwnerExchangeGroup& group, const std::vector<OwnerExchangeItem>& items,
                  int64_t alignmentBytes, ExchangeDirection direction, Visit&& visit) {
    const size_t n = group.ranks.size();
    for (size_t i = 0; i < items.size(); ++i) {
        const int es = direction == ExchangeDirection::ToComputer ? dtypeSize(items[i].param.dtype)
                                                                  : int(sizeof(float));
        const size_t computer = size_t(group.computer[i]);
        for (size_t q = 0; q < n; ++q) {
            const int64_t block =
                paddedElements(group.held[i][q].localNumel(), alignmentBytes, es) * es;
            if (direction == ExchangeDirection::ToComputer)
                visit(q, computer, block);
            else
                visit(computer, q, block);
        }
    }
}

}  // namespace

std::vector<std::vector<int64_t>> exchangeBlockBytes(const OwnerExchangeGroup& group,
                                                     const std::vector<OwnerExchangeItem>& items,
                                                     int64_t alignmentBytes,
                                                     ExchangeDirection direction) {
    const size_t n = group.ranks.size();
    std::vector<std::vector<int64_t>> bytes(n, std::vector<int64_t>(n, 0));
    forEachBlock(group, items, alignmentBytes, direction,
                 [&](size_t from, size_t to, int64_t block) { bytes[from][to] += block; });
    return bytes;
}

ExchangeTotals exchangeTotals(const OwnerExchangeGroup& group,
                              const std::vector<OwnerExchangeItem>& items, int64_t alignmentBytes,
                              ExchangeDirection direction) {
    const size_t n = group.ranks.size();
    ExchangeTotals totals{std::vector<int64_t>(n, 0), std::vector<int64_t>(n, 0),
                          std::vector<int64_t>(n, 0)};
    forEachBlock(group, items, alignmentBytes, direction,
                 [&](size_t from, size_t to, int64_t block) {
                     totals.sent[from] += block;
                     totals.received[to] += block;
                     if (from == to) totals.own[from] += block;
                 });
    return totals;
}

namespace {

// One alltoallv's buffers and where each item's block sits in them: blocks
// peer by peer (alltoallv's order), items in batch order inside a peer's block.
struct ExchangeBuffers {
    std::vector<size_t> sendBytes, recvBytes;      // per member
    std::vector<std::vector<int64_t>> sendOffset;  // [item][member] in `send`, -1: none
    std::vector<std::vector<int64_t>> recvOffset;  // [item][member] in `recv`, -1: none
    std::vector<int64_t> blockPayload;             // [item] this rank's own block's payload
    std::vector<std::byte> send, recv;
    MemoryCharge sendCharge, recvCharge;
};

// The block of item i held at member `holder`: elements and padded bytes.
struct Block {
    int64_t numel = 0;
    int64_t bytes = 0;
};
Block blockOf(const OwnerExchangeGroup& group, const std::vector<OwnerExchangeItem>& items,
              size_t i, size_t holder, int64_t alignmentBytes, ExchangeDirection direction) {
    const int es = direction == ExchangeDirection::ToComputer ? dtypeSize(items[i].param.dtype)
                                                              : int(sizeof(float));
    const int64_t numel = group.held[i][holder].localNumel();
    return {numel, paddedElements(numel, alignmentBytes, es) * es};
}

ExchangeBuffers layOut(const OwnerExchangeGroup& group, const std::vector<OwnerExchangeItem>& items,
                       int64_t alignmentBytes, ExchangeDirection direction, MemoryKind kind) {
    const size_t n = group.ranks.size(), me = size_t(group.me);
    const bool toComputer = direction == ExchangeDirection::ToComputer;
    ExchangeBuffers b;
    b.sendBytes.assign(n, 0);
    b.recvBytes.assign(n, 0);
    b.sendOffset.assign(items.size(), std::vector<int64_t>(n, -1));
    b.recvOffset.assign(items.size(), std::vector<int64_t>(n, -1));
    int64_t sendAt = 0, recvAt = 0;
    // Item i's block with peer q at the end of a buffer: its offset, the
    // buffer's length and the bytes for q grow by it.
    auto place = [&](std::vector<std::vector<int64_t>>& offset, int64_t& at,
                     std::vector<size_t>& perPeer, size_t i, size_t q, size_t holder) {
        offset[i][q] = at;
        const auto bytes = blockOf(group, items, i, holder, alignmentBytes, direction).bytes;
        at += bytes;
        perPeer[q] += size_t(bytes);
    };
    for (size_t q = 0; q < n; ++q)
        for (size_t i = 0; i < items.size(); ++i) {
            const size_t computer = size_t(group.computer[i]);
            // To the computer every holder sends its piece; from it every holder gets its slice.
            if (toComputer ? computer == q : computer == me)
                place(b.sendOffset, sendAt, b.sendBytes, i, q, toComputer ? me : q);
            if (toComputer ? computer == me : computer == q)
                place(b.recvOffset, recvAt, b.recvBytes, i, q, toComputer ? q : me);
        }
    b.send = poisonBuffer(sendAt);
    b.recv = poisonBuffer(recvAt);
    b.sendCharge = MemoryCharge(kind, sendAt);
    b.recvCharge = MemoryCharge(kind, recvAt);
    return b;
}

// Encodes `t` at `dst` in `dtype` and poisons the padding up to `bytes`.
void putBlock(const Tensor& t, DType dtype, int64_t bytes, std::byte* dst) {
    encodeTensor(t, dtype, dst);
    const int64_t payload = t.numel() * dtypeSize(dtype);
    fillPoison(dst + payload, bytes - payload);
}

// The label of one exchange: its params, this rank's send segments (offsets
// in its send buffer) and the bytes it sends each member.
CollectiveLabel exchangeLabel(const OwnerExchangeSetup& setup, const OwnerExchangeGroup& group,
                              const std::vector<OwnerExchangeItem>& items, const ExchangeBuffers& b,
                              ExchangeDirection direction) {
    CollectiveLabel label = setup.label;
    for (size_t i = 0; i < items.size(); ++i) {
        label.params.push_back(items[i].param.param);
        for (size_t q = 0; q < group.ranks.size(); ++q) {
            if (b.sendOffset[i][q] < 0) continue;
            const size_t holder = direction == ExchangeDirection::ToComputer ? size_t(group.me) : q;
            const Block block = blockOf(group, items, i, holder, setup.alignmentBytes, direction);
            const int es = direction == ExchangeDirection::ToComputer
                               ? dtypeSize(items[i].param.dtype)
                               : int(sizeof(float));
            label.segments.push_back({items[i].param.param, b.sendOffset[i][q], block.numel * es,
                                      block.bytes - block.numel * es});
        }
    }
    for (size_t bytes : b.sendBytes) label.peerBytes.push_back(int64_t(bytes));
    return label;
}

// A compute span of the exchange (pack, unpack) under its label, as the fused gather traces its
// own.
void traceCompute(RankContext& ctx, std::string_view op, const OwnerExchangeSetup& setup,
                  const std::vector<OwnerExchangeItem>& items, double startUs) {
    if (!ctx.tracing()) return;
    CollectiveLabel label = setup.label;
    for (const auto& item : items) label.params.push_back(item.param.param);
    ctx.recordCompute(op, label, startUs);
}

void exchange(RankContext& ctx, const OwnerExchangeSetup& setup, const OwnerExchangeGroup& group,
              const std::vector<OwnerExchangeItem>& items, ExchangeBuffers& b,
              ExchangeDirection direction) {
    // A shard group of one rank (its shard dims all of size 1) keeps its own
    // blocks: no collective, as the all-gather skips a dim of size 1.
    if (group.ranks.size() == 1) {
        std::copy(b.send.begin(), b.send.end(), b.recv.begin());
        return;
    }
    Communicator& comm = ctx.group(group.ranks);
    comm.allToAllV(b.send.data(), b.sendBytes, b.recv.data(), b.recvBytes,
                   exchangeLabel(setup, group, items, b, direction));
}

}  // namespace

OwnerMatrices gatherToComputers(RankContext& ctx, const OwnerExchangeSetup& setup,
                                const OwnerExchangeGroup& group,
                                const std::vector<OwnerExchangeItem>& items) {
    const auto direction = ExchangeDirection::ToComputer;
    ExchangeBuffers b =
        layOut(group, items, setup.alignmentBytes, direction, MemoryKind::GatherBuffer);
    const size_t me = size_t(group.me);
    const double packStartUs = ctx.nowUs();
    for (size_t i = 0; i < items.size(); ++i) {
        const size_t computer = size_t(group.computer[i]);
        const auto bytes = blockOf(group, items, i, me, setup.alignmentBytes, direction).bytes;
        putBlock(*items[i].param.local, items[i].param.dtype, bytes,
                 b.send.data() + b.sendOffset[i][computer]);
    }
    traceCompute(ctx, "pack", setup, items, packStartUs);
    exchange(ctx, setup, group, items, b, direction);
    b.sendCharge.reset();
    b.send = {};
    const double unpackStartUs = ctx.nowUs();
    OwnerMatrices out;
    out.full.resize(items.size());
    out.charges.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        if (!group.computesHere(i)) continue;
        const auto& item = items[i].param;
        Tensor full(item.shape);
        out.charges[i] =
            MemoryCharge(MemoryKind::FullMatrix, full.numel() * int64_t(sizeof(float)));
        std::vector<IndexSet> whole;
        for (int64_t len : item.shape) whole.push_back({IndexRange{0, len}});
        for (size_t q = 0; q < group.ranks.size(); ++q) {
            const ShardLayout& held = group.held[i][q];
            Tensor piece =
                decodeTensor(b.recv.data() + b.recvOffset[i][q], item.dtype, held.localShape());
            insert(full, positionsIn(whole, held.dims), piece);
        }
        out.full[i] = std::move(full);
    }
    traceCompute(ctx, "unpack", setup, items, unpackStartUs);
    return out;
}

std::vector<Tensor> returnUpdateSlices(RankContext& ctx, const OwnerExchangeSetup& setup,
                                       const OwnerExchangeGroup& group,
                                       const std::vector<OwnerExchangeItem>& items,
                                       const std::vector<Tensor>& updates) {
    const auto direction = ExchangeDirection::FromComputer;
    ExchangeBuffers b =
        layOut(group, items, setup.alignmentBytes, direction, MemoryKind::UpdatePayload);
    const size_t n = group.ranks.size(), me = size_t(group.me);
    const double packStartUs = ctx.nowUs();
    for (size_t i = 0; i < items.size(); ++i) {
        if (!group.computesHere(i)) continue;
        for (size_t q = 0; q < n; ++q) {
            const ShardLayout& held = group.held[i][q];
            std::vector<IndexSet> whole;
            for (int64_t len : items[i].param.shape) whole.push_back({IndexRange{0, len}});
            const Tensor slice = extract(updates[i], positionsIn(whole, held.dims));
            const auto bytes = blockOf(group, items, i, q, setup.alignmentBytes, direction).bytes;
            putBlock(slice, DType::F32, bytes, b.send.data() + b.sendOffset[i][q]);
        }
    }
    traceCompute(ctx, "pack", setup, items, packStartUs);
    exchange(ctx, setup, group, items, b, direction);
    b.sendCharge.reset();
    b.send = {};
    std::vector<Tensor> mine;
    for (size_t i = 0; i < items.size(); ++i) {
        const size_t computer = size_t(group.computer[i]);
        mine.push_back(decodeTensor(b.recv.data() + b.recvOffset[i][computer], DType::F32,
                                    group.held[i][me].localShape()));
    }
    return mine;
}

}  // namespace hsdp
