// SPDX-License-Identifier: Apache-2.0
#include "strategy_measure.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "collectives/fused_gather.h"
#include "collectives/owner_exchange.h"
#include "collectives/replicate_broadcast.h"
#include "collectives/update_slicing.h"
#include "runtime/memory_ledger.h"
#include "runtime/world.h"
#include "tensor/packing.h"
#include "types/scenario.h"
#include "verify/truth.h"

namespace hsdp::bench {

namespace {

using Clock = std::chrono::steady_clock;

// The computing rank of each param: largest first onto the least loaded.
std::vector<int> computingRanks(const GatherWorkload& w) {
    std::vector<int> order(size_t(w.params()));
    std::iota(order.begin(), order.end(), 0);
    auto numel = [&](int p) { return shapeNumel(w.shapes[size_t(p)]); };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return numel(a) > numel(b); });
    std::vector<int64_t> load(size_t(w.ranks), 0);
    std::vector<int> computer(size_t(w.params()));
    for (int p : order) {
        const auto least = std::min_element(load.begin(), load.end()) - load.begin();
        computer[size_t(p)] = int(least);
        load[size_t(least)] += numel(p);
    }
    return computer;
}

struct RankSide {
    std::vector<double> seconds;
    int64_t receivedBytes = 0;
    int64_t peakBytes = 0;
    std::string error;
};

class RankStrategies {
public:
    RankStrategies(RankContext& ctx, const GatherWorkload& w, const Mesh& mesh,
                   const std::vector<int>& computer)
        : ctx_(ctx), w_(w), mesh_(mesh), coord_(*mesh.coordinateOf(ctx.rank())) {
        label_.phase = "bench";
        for (int p = 0; p < w.params(); ++p)
            locals_.push_back(localTensor(Truth::grad(p), w.shapes[size_t(p)], w.placements(),
                                          mesh.shape, coord_, w.dtype));
        for (int p = 0; p < w.params(); ++p) {
            GatherItem item{p, w.shapes[size_t(p)], w.placements(), w.dtype, &locals_[size_t(p)]};
            items_.push_back(item);
            exchangeItems_.push_back({item, Coord{computer[size_t(p)]}});
            roots_.push_back(Coord{computer[size_t(p)]});
        }
        exchangeSetup_ = {&mesh_, coord_, {0}, w.alignmentBytes, label_};
        exchangeGroup_ = ownerExchangeGroup(exchangeSetup_, exchangeItems_);
    }

    // The reference design: every member gathers every matrix, the computing
    // rank's fp32 update goes to every member, each slices its part.
    std::vector<Tensor> allGather() {
        GatherSetup setup{&mesh_, coord_, {{0, 0}}, w_.alignmentBytes, label_};
        GatherResult gathered = fusedGatherCorrected(ctx_, setup, items_);
        // The runner's copies: every full matrix as a tensor, then each one's payload.
        std::vector<Tensor> full;
        std::vector<MemoryCharge> fullCharges;
        for (size_t i = 0; i < items_.size(); ++i) {
            full.push_back(gathered.full[i].toTensor());
            fullCharges.emplace_back(MemoryKind::FullMatrix, full.back().numel() * 4);
        }
        gathered = GatherResult();
        std::vector<std::vector<std::byte>> payloads(items_.size());
        std::vector<MemoryCharge> charges;
        std::vector<BroadcastItem> updates;
        for (size_t i = 0; i < items_.size(); ++i) {
            payloads[i] = poisonBuffer(shapeNumel(w_.shapes[i]) * 4);
            charges.emplace_back(MemoryKind::UpdatePayload, int64_t(payloads[i].size()));
            if (roots_[i][0] == coord_[0]) encodeTensor(full[i], DType::F32, payloads[i].data());
            full[i] = Tensor();
            fullCharges[i].reset();
            updates.push_back({int(i), roots_[i], &payloads[i]});
        }
        hierarchicalBroadcast(ctx_, {&mesh_, coord_, {0}, w_.alignmentBytes, 0, label_}, updates);
        std::vector<Tensor> slices;
        for (size_t i = 0; i < items_.size(); ++i)
            slices.push_back(
                sliceUpdateCorrected(decodeTensor(payloads[i].data(), DType::F32, w_.shapes[i]),
                                     w_.placements(), mesh_.shape, coord_));
        return slices;
    }

    std::vector<Tensor> allToAll() {
        OwnerMatrices full =
            gatherToComputers(ctx_, exchangeSetup_, exchangeGroup_, exchangeItems_);
        return returnUpdateSlices(ctx_, exchangeSetup_, exchangeGroup_, exchangeItems_, full.full);
    }

    // What this rank takes off the wire under each (payload and padding, as sized by the runner).
    int64_t allGatherReceived() const {
        const int64_t gather = w_.packedBytes() * (w_.ranks - 1);
        int64_t updates = 0;  // the fp32 updates of the params computed elsewhere, padded
        for (size_t i = 0; i < items_.size(); ++i)
            if (roots_[i][0] != coord_[0])
                updates += paddedElements(shapeNumel(w_.shapes[i]), w_.alignmentBytes, 4) * 4;
        return gather + updates;
    }
    int64_t allToAllReceived() const {
        int64_t total = 0;
        for (auto direction : {ExchangeDirection::ToComputer, ExchangeDirection::FromComputer}) {
            const auto blocks =
                exchangeBlockBytes(exchangeGroup_, exchangeItems_, w_.alignmentBytes, direction);
            for (size_t q = 0; q < blocks.size(); ++q)
                if (int(q) != exchangeGroup_.me) total += blocks[q][size_t(exchangeGroup_.me)];
        }
        return total;
    }

    // Empty when every slice is this rank's shard of the gradient, bit for bit.
    std::string check(const std::vector<Tensor>& slices, const char* strategy) const {
        for (size_t i = 0; i < slices.size(); ++i)
            if (slices[i] != locals_[i])
                return std::string(strategy) + ": rank " + std::to_string(ctx_.rank()) +
                       " got a wrong slice of param " + std::to_string(i);
        return {};
    }

    template <typename Work>
    double timed(Work&& work) {
        ctx_.group(exchangeGroup_.ranks).barrier(label_);
        const auto start = Clock::now();
        work();
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

private:
    RankContext& ctx_;
    const GatherWorkload& w_;
    const Mesh& mesh_;
    Coord coord_;
    CollectiveLabel label_;
    std::vector<Tensor> locals_;
    std::vector<GatherItem> items_;
    std::vector<OwnerExchangeItem> exchangeItems_;
    std::vector<Coord> roots_;
    OwnerExchangeSetup exchangeSetup_;
    OwnerExchangeGroup exchangeGroup_;
};

// One untimed, ledgered pass: the result checked and the buffers' high-water mark.
template <typename Run>
void warmUp(RankSide& side, Run&& run, const RankStrategies& g, const char* strategy) {
    MemoryTally tally;
    {
        LedgerScope scope(tally);
        side.error = g.check(run(), strategy);
    }
    side.peakBytes = tally.result(0).peakBytes;
}

StrategySide foldRanks(const std::vector<RankSide>& sides) {
    StrategySide out;
    out.verified = true;
    for (size_t r = 0; r < sides.front().seconds.size(); ++r) {
        double slowest = 0;
        for (const auto& s : sides) slowest = std::max(slowest, s.seconds[r]);
        out.seconds.push_back(slowest);
    }
    for (const auto& s : sides) {
        out.maxReceivedBytes = std::max(out.maxReceivedBytes, s.receivedBytes);
        out.meanReceivedBytes += double(s.receivedBytes) / double(sides.size());
        out.maxPeakBytes = std::max(out.maxPeakBytes, s.peakBytes);
        if (!s.error.empty() && out.verified) {
            out.verified = false;
            out.detail = s.error;
        }
    }
    return out;
}

}  // namespace

StrategySamples measureStrategies(const GatherWorkload& w, int rounds) {
    const Mesh mesh = w.mesh();
    const std::vector<int> computer = computingRanks(w);
    std::vector<RankSide> gathered(size_t(w.ranks)), exchanged(size_t(w.ranks));
    WorldOptions world;
    world.worldSize = w.ranks;
    world.timeout = std::chrono::milliseconds(300000);
    runWorld(world, mesh.groupsAlong(0), [&](RankContext& ctx) {
        const size_t r = size_t(ctx.rank());
        RankStrategies g(ctx, w, mesh, computer);
        gathered[r].receivedBytes = g.allGatherReceived();
        exchanged[r].receivedBytes = g.allToAllReceived();
        warmUp(
            gathered[r], [&] { return g.allGather(); }, g, "all-gather");
        warmUp(
            exchanged[r], [&] { return g.allToAll(); }, g, "all-to-all");
        for (int round = 0; round < rounds; ++round) {
            // Each round starts with the other strategy, so neither always follows the same one.
            for (int k = 0; k < 2; ++k) {
                if ((round + k) % 2 == 0)
                    gathered[r].seconds.push_back(g.timed([&] { g.allGather(); }));
                else
                    exchanged[r].seconds.push_back(g.timed([&] { g.allToAll(); }));
            }
        }
    });
    return {foldRanks(gathered), foldRanks(exchanged)};
}

}  // namespace hsdp::bench
