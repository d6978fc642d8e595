// SPDX-License-Identifier: Apache-2.0
#include "step/entry_owners.h"

#include <stdexcept>
#include <string>

namespace hsdp {

Coord reducedReplicateCoord(const Group& group, const Batch& batch, const Coord& coord) {
    Coord replicateCoord;
    for (size_t j = 0; j < group.replicateMeshDims.size(); ++j)
        replicateCoord.push_back(coord[size_t(group.replicateMeshDims[j])] %
                                 batch.replicateSizes.at(j));
    return replicateCoord;
}

namespace {

// Gives each replicate coordinate its shard compute plan: `slotOf(coord)` is
// where to put it, or null for a coordinate not asked about. A coordinate
// listed twice follows its last plan, as the runner always has.
template <class SlotOf>
void assignPlans(const Batch& batch, SlotOf slotOf) {
    for (const auto& plan : batch.shardCompute)
        if (const ShardCompute** slot = slotOf(plan.replicateCoord)) *slot = &plan;
}

// Where `plan` computes p, shard 0 without a plan or when it does not name p.
Coord computeShardIn(const Group& group, const ShardCompute* plan, int p) {
    if (plan) {
        auto it = plan->computeCoord.find(p);
        if (it != plan->computeCoord.end()) return it->second;
    }
    return Coord(group.shardMeshDims.size(), 0);
}

}  // namespace

Coord computeShard(const Group& group, const Batch& batch, const Coord& replicateCoord, int p) {
    const ShardCompute* plan = nullptr;
    assignPlans(batch,
                [&](const Coord& coord) { return coord == replicateCoord ? &plan : nullptr; });
    return computeShardIn(group, plan, p);
}

bool heldOnEntry(const Scenario& scenario, const Mesh& mesh, int p, std::string_view who) {
    const ParamSpec& spec = scenario.params.at(size_t(p));
    if (!spec.placements) return true;
    const Mesh* own = scenario.findMesh(spec.mesh);
    if (own && own != &mesh && (own->shape != mesh.shape || own->ranks != mesh.ranks))
        throw std::logic_error(std::string(who) + ": param " + std::to_string(p) +
                               " is not on its group's mesh");
    return own != nullptr;
}

const OwnerClass* EntryOwners::classAt(const Group& group, const Batch& batch,
                                       const Coord& coord) const {
    auto it = classes.find(reducedReplicateCoord(group, batch, coord));
    return it == classes.end() ? nullptr : &it->second;
}

EntryOwners entryOwners(const Scenario& scenario, const Group& group, const Batch& batch,
                        const Mesh& mesh, std::string_view who) {
    EntryOwners out;
    for (int p : batch.params) {
        auto it = batch.owner.find(p);
        if (it == batch.owner.end() || !heldOnEntry(scenario, mesh, p, who)) continue;
        out.owned.push_back(p);
        out.owners.push_back(it->second);
        out.classes[it->second].owned.push_back(p);
    }
    std::map<Coord, const ShardCompute*> plans;
    for (const auto& [coord, c] : out.classes) plans.emplace(coord, nullptr);
    assignPlans(batch, [&](const Coord& coord) {
        auto it = plans.find(coord);
        return it == plans.end() ? nullptr : &it->second;
    });
    for (auto& [coord, c] : out.classes)
        for (int p : c.owned) c.computeShards.push_back(computeShardIn(group, plans.at(coord), p));
    return out;
}

}  // namespace hsdp
