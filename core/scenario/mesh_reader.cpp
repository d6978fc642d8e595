#include "scenario/mesh_reader.h"

#include <algorithm>
#include <unordered_map>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

std::vector<int64_t> readMeshShape(const Json& value, const std::string& path) {
    readArray(value, path, "mesh dim sizes");
    if (value.empty()) failExpected(path, "at least one mesh dim size", value);
    std::vector<int64_t> shape;
    int64_t size = 1;
    for (size_t i = 0; i < value.size(); ++i) {
        int64_t dim = readInt(value[i], childPath(path, i), 1, kMaxWorldSize);
        size *= dim;  // both factors <= 2^20 and size stays <= 2^20: no overflow
        if (size > kMaxWorldSize)
            throw ScenarioError(path, "mesh has more than " + std::to_string(kMaxWorldSize) +
                                          " ranks (the product of its shape)");
        shape.push_back(dim);
    }
    return shape;
}

std::vector<std::string> readDimNames(const Json& value, const std::string& path, int ndim) {
    readArray(value, path, "strings, one per mesh dim");
    if (static_cast<int>(value.size()) != ndim)
        throw ScenarioError(path, "expected " + std::to_string(ndim) +
                                      " dim names (one per mesh dim), got " +
                                      std::to_string(value.size()));
    std::vector<std::string> names;
    for (size_t i = 0; i < value.size(); ++i) {
        std::string name = readString(value[i], childPath(path, i));
        auto earlier = std::find(names.begin(), names.end(), name);
        if (earlier != names.end())
            throw ScenarioError(childPath(path, i),
                                "duplicate dim name \"" + name + "\" (also at index " +
                                    std::to_string(earlier - names.begin()) + ")");
        names.push_back(std::move(name));
    }
    return names;
}

std::vector<int> readRanks(const Json& value, const std::string& path, int64_t meshSize) {
    readArray(value, path, "global ranks");
    if (static_cast<int64_t>(value.size()) != meshSize)
        throw ScenarioError(path, "expected " + std::to_string(meshSize) +
                                      " ranks (the product of the mesh shape), got " +
                                      std::to_string(value.size()));
    std::vector<int> ranks;
    std::unordered_map<int, size_t> positionOf;
    for (size_t i = 0; i < value.size(); ++i) {
        auto rank = static_cast<int>(readInt(value[i], childPath(path, i), 0, kMaxWorldSize - 1));
        auto [it, fresh] = positionOf.emplace(rank, i);
        if (!fresh)
            throw ScenarioError(childPath(path, i), "duplicate rank " + std::to_string(rank) +
                                                        " (also at index " +
                                                        std::to_string(it->second) + ")");
        ranks.push_back(rank);
    }
    return ranks;
}

MeshSource readMesh(const Json& value, const std::string& path, std::string name) {
    requireObject(value, path, "a mesh", {"shape", "dim_names", "ranks"});
    auto shape = readMeshShape(requireMember(value, path, "shape"), childPath(path, "shape"));
    const auto ndim = static_cast<int>(shape.size());
    std::vector<std::string> dimNames;  // none: the mesh names them dim0, dim1, ...
    if (const Json* names = findMember(value, "dim_names"))
        dimNames = readDimNames(*names, childPath(path, "dim_names"), ndim);
    const Json* ranks = findMember(value, "ranks");
    if (!ranks) return {Mesh(std::move(name), std::move(shape), std::move(dimNames)), path, false};
    int64_t size = 1;
    for (auto s : shape) size *= s;
    auto rankList = readRanks(*ranks, childPath(path, "ranks"), size);
    return {Mesh(std::move(name), std::move(shape), std::move(dimNames), std::move(rankList)), path,
            true};
}

}  // namespace

std::vector<MeshSource> readMeshes(const Json& top) {
    const Json* single = findMember(top, "mesh");
    const Json* several = findMember(top, "meshes");
    if (single && several)
        throw ScenarioError("/meshes",
                            "both \"mesh\" and \"meshes\" are given; expected one of them");
    if (single) return {readMesh(*single, "/mesh", "main")};
    if (!several) throw ScenarioError("", "missing required key \"mesh\" (or \"meshes\")");
    if (!several->is_object() || several->empty())
        failExpected("/meshes", "an object mapping mesh names to meshes (at least one)", *several);
    std::vector<MeshSource> meshes;
    for (const auto& [name, value] : several->items()) {
        std::string path = childPath("/meshes", name);
        if (name.empty()) throw ScenarioError(path, "expected a non-empty mesh name");
        meshes.push_back(readMesh(value, path, name));
    }
    return meshes;
}

int resolveWorldSize(const Json& top, const std::vector<MeshSource>& meshes) {
    int maxRank = -1;
    for (const auto& source : meshes)
        for (int rank : source.mesh.ranks) maxRank = std::max(maxRank, rank);
    const Json* given = findMember(top, "world_size");
    if (!given) return maxRank + 1;
    auto worldSize = static_cast<int>(readInt(*given, "/world_size", 1, kMaxWorldSize));
    for (const auto& source : meshes) {
        const auto& ranks = source.mesh.ranks;
        auto bad = std::find_if(ranks.begin(), ranks.end(), [&](int r) { return r >= worldSize; });
        if (bad == ranks.end()) continue;
        std::string problem = "rank " + std::to_string(*bad) + " of mesh \"" + source.mesh.name +
                              "\" is not < world_size " + std::to_string(worldSize);
        // Point at the rank when the file lists it, else at the too-small world size.
        if (source.explicitRanks)
            throw ScenarioError(childPath(childPath(source.path, "ranks"),
                                          static_cast<size_t>(bad - ranks.begin())),
                                problem);
        throw ScenarioError("/world_size",
                            problem + "; expected world_size >= " + std::to_string(maxRank + 1));
    }
    return worldSize;
}

}  // namespace hsdp
