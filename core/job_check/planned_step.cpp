// SPDX-License-Identifier: Apache-2.0
#include "job_check/planned_step.h"

#include <algorithm>
#include <map>
#include <optional>

#include "step/entry_owners.h"
#include "types/collective_op.h"

namespace hsdp {

PlannedStep plannedStep(StepSchedule schedule) {
    PlannedStep out;
    std::map<std::vector<int64_t>, size_t> byMembers;
    std::vector<size_t> groupOf;  // schedule group -> planned group
    for (const auto& members : schedule.groups) {
        std::vector<int64_t> ranks(members.begin(), members.end());
        std::sort(ranks.begin(), ranks.end());
        const auto [at, isNew] = byMembers.try_emplace(ranks, out.groups.size());
        if (isNew) out.groups.push_back({ranks, std::vector<std::vector<int>>(ranks.size())});
        groupOf.push_back(at->second);
    }
    for (size_t r = 0; r < schedule.ranks.size(); ++r)
        for (const RankWork& work : schedule.ranks[r]) {
            if (work.kind != WorkKind::Collective) continue;
            const auto& c = schedule.collectives[size_t(work.collective)];
            PlannedGroup& group = out.groups[groupOf[size_t(c.group)]];
            const auto at = std::lower_bound(group.ranks.begin(), group.ranks.end(), int64_t(r));
            if (at != group.ranks.end() && *at == int64_t(r))
                group.programs[size_t(at - group.ranks.begin())].push_back(work.collective);
        }
    out.schedule = std::move(schedule);
    return out;
}

std::vector<int> entryParams(const Plan& plan, int scheduleIndex) {
    if (scheduleIndex < 0 || size_t(scheduleIndex) >= plan.schedule.size()) return {};
    const ScheduleEntry& entry = plan.schedule[size_t(scheduleIndex)];
    for (const Group& group : plan.groups)
        if (group.id == entry.group && entry.batch >= 0 &&
            size_t(entry.batch) < group.batches.size())
            return group.batches[size_t(entry.batch)].params;
    return {};
}

std::vector<int> carriedParams(const Scenario& scenario, const Plan& plan,
                               const StepSchedule& schedule, int index) {
    const ScheduledCollective& c = schedule.collectives[size_t(index)];
    std::vector<int> batchParams = entryParams(plan, c.scheduleIndex);
    const bool broadcast =
        c.phase == StepPhase::UpdateBroadcast || c.phase == StepPhase::ReplicaBroadcast;
    if (!broadcast || c.op != CollectiveOp::Broadcast || c.root < 0 || batchParams.empty())
        return batchParams;
    const ScheduleEntry& entry = plan.schedule[size_t(c.scheduleIndex)];
    const Group& group = plan.groups.at(size_t(entry.group));
    const Batch& batch = group.batches.at(size_t(entry.batch));
    const Mesh& mesh = scenario.mesh(group.mesh);
    const int root = schedule.groups[size_t(c.group)].at(size_t(c.root));
    const std::optional<Coord> coord = mesh.coordinateOf(root);
    if (!coord) return batchParams;
    const EntryOwners owners = entryOwners(scenario, group, batch, mesh, "check-job");
    const OwnerClass* mine = owners.classAt(group, batch, *coord);
    if (!mine) return batchParams;
    if (c.phase == StepPhase::ReplicaBroadcast) return mine->owned;
    Coord shard;
    for (int d : group.shardMeshDims) shard.push_back((*coord)[size_t(d)]);
    std::vector<int> computed;
    for (size_t i = 0; i < mine->owned.size(); ++i)
        if (mine->computeShards[i] == shard) computed.push_back(mine->owned[i]);
    return computed;
}

namespace {

// The element types collective `index` carries: its TP transition's
// tensor's; an update broadcast's fp32 (the updates Newton–Schulz made, as
// the runner sends them); else its params'.
std::vector<DType> contentsOf(const Scenario& scenario, const Plan& plan,
                              const StepSchedule& schedule, int index) {
    const ScheduledCollective& c = schedule.collectives[size_t(index)];
    if (c.phase == StepPhase::Tp && c.tpTransition >= 0 &&
        size_t(c.tpTransition) < scenario.tpTransitions.size())
        return {scenario.tpTransitions[size_t(c.tpTransition)].dtype};
    if (c.phase == StepPhase::UpdateBroadcast) return {DType::F32};
    std::vector<DType> out;
    for (int p : carriedParams(scenario, plan, schedule, index))
        if (p >= 0 && size_t(p) < scenario.params.size())
            out.push_back(scenario.params[size_t(p)].dtype);
    return out;
}

}  // namespace

CollectiveBuffers scheduledBuffers(const Scenario& scenario, const Plan& plan,
                                   const StepSchedule& schedule, int index, int rank) {
    const ScheduledCollective& c = schedule.collectives[size_t(index)];
    const auto& members = schedule.groups[size_t(c.group)];
    const int64_t n = std::max<int64_t>(1, int64_t(members.size()));
    const size_t me = size_t(std::find(members.begin(), members.end(), rank) - members.begin());
    CollectiveBuffers out{std::string(traceNameOf(c.op)), c.sizeBytes, c.sizeBytes, c.reduction,
                          contentsOf(scenario, plan, schedule, index)};
    switch (c.op) {  // as runtime/detail/gloo_communicator.cpp hands them to the trace
        case CollectiveOp::AllGather:
        case CollectiveOp::AllGatherV:
            out.inputBytes = c.sizeBytes / n;
            break;
        case CollectiveOp::ReduceScatter:
            out.outputBytes = c.sizeBytes / n;
            break;
        case CollectiveOp::AllToAllV:
            out.inputBytes = me < c.exchange.size() ? c.exchange[me].input : 0;
            out.outputBytes = me < c.exchange.size() ? c.exchange[me].output : 0;
            break;
        case CollectiveOp::Barrier:
            out.inputBytes = out.outputBytes = 0;
            break;
        default:
            break;
    }
    return out;
}

}  // namespace hsdp
