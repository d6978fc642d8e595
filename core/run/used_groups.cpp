// SPDX-License-Identifier: Apache-2.0
#include "run/used_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "run/detail/tp_transition.h"
#include "run/optimizer_step.h"

namespace hsdp {

namespace {

// Every group spanning `dims` at once (the other coordinates fixed), ranks
// ascending; none when the dims span a single rank.
std::vector<std::vector<int>> groupsOver(const Mesh& mesh, const std::vector<int>& dims) {
    std::vector<int64_t> rest = mesh.shape;
    int64_t span = 1;
    for (int d : dims) {
        span *= mesh.shape[size_t(d)];
        rest[size_t(d)] = 1;
    }
    std::vector<std::vector<int>> out;
    if (span <= 1) return out;
    for (const Coord& base : allCoordinates(rest)) {
        auto ranks = mesh.groupOver(dims, base);
        std::sort(ranks.begin(), ranks.end());
        out.push_back(std::move(ranks));
    }
    return out;
}

}  // namespace

std::vector<std::vector<int>> usedGroups(const Scenario& scenario, const Plan& plan, RunMode mode) {
    std::map<std::string, std::set<int>> dimsByMesh;  // mesh name -> communicating dims
    // mesh name -> sets of dims some all-to-all exchange runs over as one group
    std::map<std::string, std::set<std::vector<int>>> flattenedByMesh;
    for (const auto& entry : plan.schedule) {
        const Group& group = plan.groups.at(size_t(entry.group));
        const Batch& batch = group.batches.at(size_t(entry.batch));
        for (int d : scheduleEntryMeshDims(group, batch, mode)) dimsByMesh[group.mesh].insert(d);
        if (auto dims = exchangeMeshDims(group, batch, mode); !dims.empty())
            flattenedByMesh[group.mesh].insert(std::move(dims));
    }
    for (const auto& tp : plan.tpTransitions) {
        const Mesh& mesh = scenario.mesh(scenario.tpTransitions.at(size_t(tp.index)).mesh);
        for (int d : tpTransitionMeshDims(tp, mesh, mode)) dimsByMesh[mesh.name].insert(d);
    }
    std::vector<std::vector<int>> groups;
    for (const auto& mesh : scenario.meshes) {  // scenario order: every process agrees on it
        if (const auto it = dimsByMesh.find(mesh.name); it != dimsByMesh.end())
            for (int d : it->second)
                if (mesh.shape[size_t(d)] > 1)
                    for (auto& g : mesh.groupsAlong(d)) groups.push_back(std::move(g));
        if (const auto it = flattenedByMesh.find(mesh.name); it != flattenedByMesh.end())
            for (const auto& dims : it->second)
                for (auto& g : groupsOver(mesh, dims)) groups.push_back(std::move(g));
    }
    return groups;
}

}  // namespace hsdp
