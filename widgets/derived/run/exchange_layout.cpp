// SPDX-License-Identifier: Apache-2.0
#include "derived/run/exchange_layout.h"

#include <algorithm>

#include "collectives/owner_exchange.h"
#include "plan/plan.h"
#include "step/entry_owners.h"
#include "tensor/packing.h"
#include "types/dtype.h"
#include "types/scenario.h"

namespace hsdp {

namespace {

const Group* groupWithId(const Plan& plan, int id) {
    for (const auto& g : plan.groups)
        if (g.id == id) return &g;
    return nullptr;
}

std::vector<int64_t> runShape(const RunResult& run, const ParamSpec& spec) {
    if (size_t(spec.index) < run.paramShapes.size() && !run.paramShapes[size_t(spec.index)].empty())
        return run.paramShapes[size_t(spec.index)];
    for (const auto& p : run.params)
        if (p.index == spec.index && !p.shapeRun.empty()) return p.shapeRun;
    return spec.shape;
}

struct Geometry {
    OwnerExchangeGroup group;
    std::vector<OwnerExchangeItem> items;
    int64_t alignmentBytes = 512;
};

std::optional<Geometry> geometryOf(const RunData& data, const CollectiveLabel& label, int rank) {
    const Scenario& scenario = *data.plan.scenario;
    const Plan& plan = *data.plan.plan;
    const Group* group = groupWithId(plan, label.group);
    const Mesh* mesh = scenario.findMesh(label.mesh);
    if (!group || !mesh || label.batch < 0 || size_t(label.batch) >= group->batches.size())
        return std::nullopt;
    const Batch& batch = group->batches[size_t(label.batch)];
    const auto coord = mesh->coordinateOf(rank);
    if (!coord) return std::nullopt;
    Geometry g;
    g.alignmentBytes = plan.alignmentBytes;
    for (int p : label.params) {
        if (p < 0 || size_t(p) >= scenario.params.size()) return std::nullopt;
        const ParamSpec& spec = scenario.params[size_t(p)];
        if (!spec.placements) return std::nullopt;
        g.items.push_back(
            {{p, runShape(*data.run, spec), *spec.placements, spec.dtype, nullptr},
             computeShard(*group, batch, reducedReplicateCoord(*group, batch, *coord), p)});
    }
    const OwnerExchangeSetup setup{mesh, *coord, group->shardMeshDims, g.alignmentBytes, {}};
    g.group = ownerExchangeGroup(setup, g.items);
    return g;
}

// One side of the buffers as the runner lays them out (owner_exchange.cpp's
// layOut): peer by peer, items in batch order inside a peer's block.
std::vector<PeerBlock> blocksOf(const Geometry& g, ExchangeDirection direction, bool sending) {
    const auto& group = g.group;
    const size_t me = size_t(group.me);
    const bool toComputer = direction == ExchangeDirection::ToComputer;
    std::vector<PeerBlock> blocks;
    int64_t at = 0;
    for (size_t q = 0; q < group.ranks.size(); ++q) {
        PeerBlock block{group.ranks[q], at, 0, {}};
        for (size_t i = 0; i < g.items.size(); ++i) {
            const size_t computer = size_t(group.computer[i]);
            // To the computer every holder sends its piece; from it every holder gets its slice.
            const bool moves = sending ? (toComputer ? computer == q : computer == me)
                                       : (toComputer ? computer == me : computer == q);
            if (!moves) continue;
            const size_t holder = sending == toComputer ? me : q;
            const int es = toComputer ? dtypeSize(g.items[i].param.dtype) : int(sizeof(float));
            const int64_t numel = group.held[i][holder].localNumel();
            const int64_t padded = paddedElements(numel, g.alignmentBytes, es) * es;
            block.segments.push_back({g.items[i].param.param, at, numel * es, padded - numel * es});
            at += padded;
            block.bytes += padded;
        }
        blocks.push_back(std::move(block));
    }
    return blocks;
}

// The rank's send buffer as its trace event recorded it: the peer bytes cut
// the buffer into blocks, each segment sits in the block its offset falls in.
std::vector<PeerBlock> recordedSend(const TraceEvent& mine) {
    std::vector<PeerBlock> blocks;
    int64_t at = 0;
    for (size_t q = 0; q < mine.label.peerBytes.size() && q < mine.groupRanks.size(); ++q) {
        PeerBlock block{mine.groupRanks[q], at, mine.label.peerBytes[q], {}};
        for (const auto& s : mine.label.segments)
            if (s.offset >= at && s.offset < at + block.bytes) block.segments.push_back(s);
        at += block.bytes;
        blocks.push_back(std::move(block));
    }
    return blocks;
}

int64_t total(const std::vector<PeerBlock>& blocks) {
    int64_t sum = 0;
    for (const auto& b : blocks) sum += b.bytes;
    return sum;
}

}  // namespace

int64_t ExchangeLayout::sendBytes() const {
    return total(send);
}

int64_t ExchangeLayout::recvBytes() const {
    return total(recv);
}

std::optional<ExchangeLayout> exchangeLayout(const RunData& data, const TraceEvent& event,
                                             const TraceEvent* mine, int rank) {
    if (event.op != "all_to_all_v" || !data.isValid()) return std::nullopt;
    const ExchangeDirection direction = event.label.phase == "gather"
                                            ? ExchangeDirection::ToComputer
                                            : ExchangeDirection::FromComputer;
    const auto geometry = geometryOf(data, event.label, rank);
    if (!geometry) return std::nullopt;
    ExchangeLayout layout;
    layout.recv = blocksOf(*geometry, direction, false);
    if (mine && mine->label.peerBytes.size() == mine->groupRanks.size()) {
        layout.send = recordedSend(*mine);
        layout.sendFromTrace = true;
    } else {
        layout.send = blocksOf(*geometry, direction, true);
    }
    return layout;
}

}  // namespace hsdp
