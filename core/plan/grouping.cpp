// SPDX-License-Identifier: Apache-2.0
#include "plan/grouping.h"

#include <map>
#include <tuple>

namespace hsdp {

namespace {

std::string paramLabel(const ParamSpec& param) {
    return "#" + std::to_string(param.index) + " '" + param.name + "'";
}

// Meshes with equal shape and rank list are one communication domain whatever
// their names; each mesh maps to the first mesh equal to it.
std::vector<size_t> meshClasses(const std::vector<Mesh>& meshes) {
    std::vector<size_t> cls(meshes.size());
    for (size_t i = 0; i < meshes.size(); ++i) {
        cls[i] = i;
        for (size_t j = 0; j < i; ++j) {
            if (meshes[j].shape == meshes[i].shape && meshes[j].ranks == meshes[i].ranks) {
                cls[i] = cls[j];
                break;
            }
        }
    }
    return cls;
}

// The reference's HSDPGroupKey with the mesh (shape, ranks) replaced by its class.
using GroupKey =
    std::tuple<size_t, std::vector<int>, std::vector<int>, int, std::vector<std::pair<int, int>>>;

}  // namespace

std::variant<ParamLayout, LayoutError> extractParamLayout(const ParamSpec& param) {
    ParamLayout out;
    out.layout.tensorNdim = param.ndim();
    const auto& placements = *param.placements;
    for (size_t m = 0; m < placements.size(); ++m) {
        const Placement& p = placements[m];
        int meshDim = static_cast<int>(m);
        if (p.isReplicate()) {
            out.replicateMeshDims.push_back(meshDim);
        } else if (p.isShard()) {
            // A strided shard groups exactly like a plain shard on the same dim.
            int d = p.dim < 0 ? p.dim + param.ndim() : p.dim;
            if (d < 0 || d >= param.ndim())
                return LayoutError{std::string(codes::InvalidShardDim),
                                   "Invalid shard dim " + std::to_string(p.dim) +
                                       " for tensor ndim " + std::to_string(param.ndim()) + "."};
            out.shardMeshDims.push_back(meshDim);
            out.layout.shardAxes.emplace_back(meshDim, d);
        } else {
            return LayoutError{std::string(codes::UnsupportedPlacement),
                               "Unsupported placement type in HSDP parameter grouping: " +
                                   p.toString() + " on mesh dim " + std::to_string(meshDim) + "."};
        }
    }
    out.layout.replicateMeshDims = out.replicateMeshDims;
    out.layout.isLast2dSharded = isLast2dSharded(out.layout);
    return out;
}

bool isLast2dSharded(const GroupLayout& layout) {
    for (const auto& [meshDim, tensorDim] : layout.shardAxes)
        if (tensorDim >= layout.tensorNdim - 2) return true;
    return false;
}

bool isGathered(const Group& group) {
    return !group.shardMeshDims.empty() && group.layout.isLast2dSharded;
}

const Mesh* resolveMesh(const Scenario& scenario, const std::string& meshName) {
    if (meshName.empty()) return scenario.meshes.size() == 1 ? &scenario.meshes.front() : nullptr;
    return scenario.findMesh(meshName);
}

namespace {

// Checks that the reader would normally guarantee; a bad entry is rejected, not a crash.
std::optional<LayoutError> checkParamMesh(const ParamSpec& param, const Mesh* mesh) {
    if (!mesh)
        return LayoutError{std::string(codes::UnknownMesh), "no mesh named '" + param.mesh + "'"};
    if (static_cast<int>(param.placements->size()) != mesh->ndim())
        return LayoutError{std::string(codes::PlacementCountMismatch),
                           std::to_string(param.placements->size()) + " placements for a " +
                               std::to_string(mesh->ndim()) + "-d mesh"};
    return std::nullopt;
}

std::string rejectionHeadline(const std::string& code) {
    if (code == codes::InvalidShardDim)
        return "shard dim out of range; parameter rejected (the reference raises)";
    if (code == codes::UnsupportedPlacement)
        return "placement not supported by HSDP grouping; parameter rejected (the reference "
               "raises)";
    if (code == codes::UnknownMesh) return "parameter names an unknown mesh; rejected";
    return "placements do not match the mesh; parameter rejected";
}

Group newGroup(int id, const Mesh& mesh, const ParamLayout& layout) {
    Group g;
    g.id = id;
    g.mesh = mesh.name;
    g.meshShape = mesh.shape;
    g.meshRanks = mesh.ranks;
    g.replicateMeshDims = layout.replicateMeshDims;
    g.shardMeshDims = layout.shardMeshDims;
    g.layout = layout.layout;
    return g;
}

}  // namespace

GroupingResult groupParameters(const Scenario& scenario, DiagnosticSink& sink) {
    GroupingResult result;
    auto classes = meshClasses(scenario.meshes);
    std::map<GroupKey, size_t> groupByKey;
    for (const ParamSpec& param : scenario.params) {
        if (!param.isDTensor()) {
            (param.isAdamW() ? result.adamwParams : result.noCommParams).push_back(param.index);
            continue;
        }
        const Mesh* mesh = resolveMesh(scenario, param.mesh);
        auto checked = checkParamMesh(param, mesh);
        auto extracted =
            checked ? std::variant<ParamLayout, LayoutError>(*checked) : extractParamLayout(param);
        if (auto* error = std::get_if<LayoutError>(&extracted)) {
            result.rejectedParams.push_back(param.index);
            sink.report(Severity::Error, error->code, rejectionHeadline(error->code),
                        paramLabel(param) + " " + error->message, {param.index});
            continue;
        }
        const auto& layout = std::get<ParamLayout>(extracted);
        if (param.isAdamW()) {  // AdamW's elementwise step needs no group, owner or gather
            result.adamwParams.push_back(param.index);
            continue;
        }
        if (layout.replicateMeshDims.empty() && layout.shardMeshDims.empty()) {
            result.noCommParams.push_back(param.index);
            continue;
        }
        size_t meshIndex = static_cast<size_t>(mesh - scenario.meshes.data());
        GroupKey key{classes[meshIndex], layout.replicateMeshDims, layout.shardMeshDims,
                     layout.layout.tensorNdim, layout.layout.shardAxes};
        auto [it, inserted] = groupByKey.emplace(key, result.groups.size());
        if (inserted)
            result.groups.push_back(
                newGroup(static_cast<int>(result.groups.size()), *mesh, layout));
        result.groups[it->second].params.push_back(param.index);
    }
    return result;
}

}  // namespace hsdp
