// SPDX-License-Identifier: Apache-2.0
#include "cost/gather_traffic.h"

#include <algorithm>
#include <unordered_map>

#include "run/optimizer_step.h"
#include "step/entry_owners.h"
#include "tensor/packing.h"
#include "types/geometry.h"

namespace hsdp {

int64_t StrategyTraffic::maxReceived() const {
    int64_t most = 0;
    for (const auto& r : ranks) most = std::max(most, r.received());
    return most;
}

int64_t StrategyTraffic::totalReceived() const {
    int64_t total = 0;
    for (const auto& r : ranks) total += r.received();
    return total;
}

namespace {

StrategyTraffic emptyTraffic(GatherStrategy strategy, int worldSize) {
    StrategyTraffic traffic{strategy, std::vector<RankGatherTraffic>(size_t(worldSize))};
    for (int r = 0; r < worldSize; ++r) traffic.ranks[size_t(r)].rank = r;
    return traffic;
}

// The schedule's gathers and update broadcasts, rank by rank, of the entries
// `counted` takes: what the runner sends.
template <typename Counted>
void addAllGatherTraffic(const StepSchedule& schedule, Counted counted, StrategyTraffic& traffic) {
    for (int rank = 0; rank < schedule.worldSize; ++rank) {
        for (const RankWork& work : schedule.ranks[size_t(rank)]) {
            if (work.kind != WorkKind::Collective) continue;
            const ScheduledCollective& c = schedule.collectives[size_t(work.collective)];
            if (c.phase != StepPhase::Gather && c.phase != StepPhase::UpdateBroadcast) continue;
            if (!counted(c.scheduleIndex)) continue;
            const auto& members = schedule.groups[size_t(c.group)];
            const int n = int(members.size());
            const int me = int(std::find(members.begin(), members.end(), rank) - members.begin());
            PhaseBytes& bytes = c.phase == StepPhase::Gather
                                    ? traffic.ranks[size_t(rank)].gather
                                    : traffic.ranks[size_t(rank)].updateReturn;
            bytes.sent += schedule.traceBytes(c, rank);
            if (n > 1 && c.op == CollectiveOp::AllGather)
                bytes.received += c.sizeBytes / n * (n - 1);
            if (n > 1 && c.op == CollectiveOp::Broadcast && me != c.root)
                bytes.received += c.sizeBytes;
        }
    }
}

bool exchanges(const Plan& plan, int scheduleIndex) {
    return plan.groups.at(size_t(plan.schedule.at(size_t(scheduleIndex)).group)).gatherStrategy ==
           GatherStrategy::AllToAll;
}

std::string strategiesRun(const Plan& plan) {
    bool gathers = false, exchanged = false;
    for (const auto& entry : plan.schedule) {
        const Group& group = plan.groups.at(size_t(entry.group));
        if (!group.batches.at(size_t(entry.batch)).isShard) continue;
        (group.gatherStrategy == GatherStrategy::AllToAll ? exchanged : gathers) = true;
    }
    if (gathers && exchanged) return "mixed";
    return std::string(
        gatherStrategyName(exchanged ? GatherStrategy::AllToAll : GatherStrategy::AllGather));
}

// A param's local numel at a coordinate, worked out once per coordinate along
// the mesh dims it is not replicated over (the only ones its piece depends on).
struct PieceSizes {
    const Mesh& mesh;
    const std::vector<std::vector<int64_t>>& shapes;
    std::unordered_map<uint64_t, int64_t> known;

    int64_t numel(int p, const std::vector<Placement>& placements, const Coord& coord) {
        uint64_t index = 0;
        for (size_t d = 0; d < placements.size(); ++d)
            if (!placements[d].isReplicate())
                index = index * uint64_t(mesh.shape[d]) + uint64_t(coord[d]);
        const auto [it, isNew] = known.try_emplace((uint64_t(p) << 40) | index, 0);
        if (isNew)
            it->second = shapeNumel(
                shardLayout(shapes[size_t(p)], placements, mesh.shape, coord).localShape());
        return it->second;
    }
};

// One schedule entry under all-to-all: each member of a shard group that
// does not run a param's Newton–Schulz sends the rank that does its piece,
// and gets its slice of the fp32 update back.
void addAllToAllEntry(const Scenario& scenario, const Plan& plan, const ScheduleEntry& entry,
                      const std::vector<std::vector<int64_t>>& shapes, StrategyTraffic& traffic) {
    const Group& group = plan.groups.at(size_t(entry.group));
    const Batch& batch = group.batches.at(size_t(entry.batch));
    if (!batch.isShard) return;  // Newton–Schulz where the params are: no traffic
    const Mesh& mesh = scenario.mesh(group.mesh);
    const EntryOwners owners = entryOwners(scenario, group, batch, mesh, "gatherTraffic");
    const auto& shardDims = updateBroadcastDims(group);
    PieceSizes pieces{mesh, shapes, {}};
    for (int rank : mesh.ranks) {
        const Coord coord = *mesh.coordinateOf(rank);
        const OwnerClass* mine = owners.classAt(group, batch, coord);
        if (!mine) continue;
        for (size_t i = 0; i < mine->owned.size(); ++i) {
            const int p = mine->owned[i];
            const Coord& root = mine->computeShards[i];
            Coord at = coord;
            for (size_t k = 0; k < shardDims.size(); ++k) at[size_t(shardDims[k])] = root[k];
            if (at == coord) continue;  // this rank runs it: its piece stays
            const int computing = mesh.rankAt(at);
            const auto& spec = scenario.params[size_t(p)];
            const int64_t numel = pieces.numel(p, *spec.placements, coord);
            // Padded as the exchange pads its blocks (collectives/owner_exchange.cpp).
            const int es = dtypeSize(spec.dtype);
            const int64_t piece = paddedElements(numel, plan.alignmentBytes, es) * es;
            const int64_t slice = paddedElements(numel, plan.alignmentBytes, 4) * 4;
            traffic.ranks[size_t(rank)].gather.sent += piece;
            traffic.ranks[size_t(computing)].gather.received += piece;
            traffic.ranks[size_t(computing)].updateReturn.sent += slice;
            traffic.ranks[size_t(rank)].updateReturn.received += slice;
        }
    }
}

}  // namespace

GatherTraffic gatherTraffic(const Scenario& scenario, const Plan& plan,
                            const StepSchedule& schedule,
                            const std::vector<std::vector<int64_t>>& paramShapes) {
    GatherTraffic traffic{emptyTraffic(GatherStrategy::AllGather, scenario.worldSize),
                          emptyTraffic(GatherStrategy::AllToAll, scenario.worldSize),
                          emptyTraffic(GatherStrategy::AllGather, scenario.worldSize),
                          strategiesRun(plan)};
    const bool anyExchanged =
        std::any_of(plan.groups.begin(), plan.groups.end(),
                    [](const Group& g) { return g.gatherStrategy == GatherStrategy::AllToAll; });
    if (anyExchanged) {
        Plan gathering = plan;
        for (Group& g : gathering.groups) g.gatherStrategy = GatherStrategy::AllGather;
        const StepSchedule all = gatherSchedule(scenario, gathering, paramShapes, false);
        addAllGatherTraffic(
            all, [](int) { return true; }, traffic.allGather);
        addAllGatherTraffic(
            all, [&](int i) { return !exchanges(plan, i); }, traffic.chosen);
    } else {
        addAllGatherTraffic(
            schedule, [](int) { return true; }, traffic.allGather);
        traffic.chosen = traffic.allGather;
    }
    for (size_t i = 0; i < plan.schedule.size(); ++i) {
        addAllToAllEntry(scenario, plan, plan.schedule[i], paramShapes, traffic.allToAll);
        if (exchanges(plan, int(i)))
            addAllToAllEntry(scenario, plan, plan.schedule[i], paramShapes, traffic.chosen);
    }
    return traffic;
}

GatherTraffic gatherTraffic(const Scenario& scenario, const Plan& plan) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& spec : scenario.params) shapes.push_back(spec.shape);
    return gatherTraffic(scenario, plan, gatherSchedule(scenario, plan, shapes, false), shapes);
}

}  // namespace hsdp
