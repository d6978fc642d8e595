// SPDX-License-Identifier: Apache-2.0
#include "run/used_groups.h"

#include <map>
#include <set>
#include <string>

#include "run/detail/tp_transition.h"
#include "run/optimizer_step.h"

namespace hsdp {

std::vector<std::vector<int>> usedGroups(const Scenario& scenario, const Plan& plan, RunMode mode) {
    std::map<std::string, std::set<int>> dimsByMesh;  // mesh name -> communicating dims
    for (const auto& entry : plan.schedule) {
        const Group& group = plan.groups.at(size_t(entry.group));
        const Batch& batch = group.batches.at(size_t(entry.batch));
        for (int d : scheduleEntryMeshDims(group, batch)) dimsByMesh[group.mesh].insert(d);
    }
    for (const auto& tp : plan.tpTransitions) {
        const Mesh& mesh = scenario.mesh(scenario.tpTransitions.at(size_t(tp.index)).mesh);
        for (int d : tpTransitionMeshDims(tp, mesh, mode)) dimsByMesh[mesh.name].insert(d);
    }
    std::vector<std::vector<int>> groups;
    for (const auto& mesh : scenario.meshes) {  // scenario order: every process agrees on it
        const auto it = dimsByMesh.find(mesh.name);
        if (it == dimsByMesh.end()) continue;
        for (int d : it->second)
            if (mesh.shape[size_t(d)] > 1)
                for (auto& g : mesh.groupsAlong(d)) groups.push_back(std::move(g));
    }
    return groups;
}

}  // namespace hsdp
