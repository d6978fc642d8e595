// SPDX-License-Identifier: Apache-2.0
#include "scenario/detail/mesh_reader.h"

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
    // A mesh may have any number of dims of size 1: looking each name up in
    // a list was quadratic.
    std::unordered_map<std::string, size_t> indexOf;
    for (size_t i = 0; i < value.size(); ++i) {
        std::string name = readString(value[i], childPath(path, i));
        auto [earlier, fresh] = indexOf.emplace(name, i);
        if (!fresh)
            throw ScenarioError(childPath(path, i), "duplicate dim name \"" + name +
                                                        "\" (also at index " +
                                                        std::to_string(earlier->second) + ")");
        names.push_back(std::move(name));
    }
    return names;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string out = "[";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

// DeviceMesh prints its ranks nested by mesh dim (`mesh.mesh.tolist()`):
// [[0,1,2,3],[4,5,6,7]] for shape [2, 4]. Flattens such a list row-major,
// each level's length checked against the shape, into (rank, JSON path).
void flattenNested(const Json& value, const std::string& path, const std::vector<int64_t>& shape,
                   size_t level, std::vector<std::pair<const Json*, std::string>>& out) {
    const bool innermost = level + 1 == shape.size();
    readArray(value, path,
              innermost ? "global ranks" : "lists of ranks, nested like the mesh shape");
    if (static_cast<int64_t>(value.size()) != shape[level])
        throw ScenarioError(path, "expected " + std::to_string(shape[level]) +
                                      " entries along mesh dim " + std::to_string(level) +
                                      " (nested ranks follow the mesh shape " + shapeText(shape) +
                                      "), got " + std::to_string(value.size()));
    for (size_t i = 0; i < value.size(); ++i) {
        if (innermost) {
            out.push_back({&value[i], childPath(path, i)});
        } else if (!value[i].is_array()) {
            throw ScenarioError(childPath(path, i),
                                "expected a list of ranks (the nesting of ranks must match the "
                                "mesh shape " +
                                    shapeText(shape) + ")");
        } else {
            flattenNested(value[i], childPath(path, i), shape, level + 1, out);
        }
    }
}

// Either a flat row-major list or one nested like the shape.
std::vector<std::pair<const Json*, std::string>> rankEntries(const Json& value,
                                                             const std::string& path,
                                                             const std::vector<int64_t>& shape,
                                                             int64_t meshSize) {
    readArray(value, path, "global ranks");
    std::vector<std::pair<const Json*, std::string>> entries;
    const bool nested =
        std::any_of(value.begin(), value.end(), [](const Json& v) { return v.is_array(); });
    if (nested && shape.size() > 1) {
        flattenNested(value, path, shape, 0, entries);
        return entries;
    }
    if (static_cast<int64_t>(value.size()) != meshSize)
        throw ScenarioError(path, "expected " + std::to_string(meshSize) +
                                      " ranks (the product of the mesh shape), got " +
                                      std::to_string(value.size()) +
                                      "; or lists nested like the shape " + shapeText(shape));
    for (size_t i = 0; i < value.size(); ++i) entries.push_back({&value[i], childPath(path, i)});
    return entries;
}

std::vector<int> readRanks(const Json& value, const std::string& path,
                           const std::vector<int64_t>& shape, int64_t meshSize) {
    std::vector<int> ranks;
    std::unordered_map<int, size_t> positionOf;
    const auto entries = rankEntries(value, path, shape, meshSize);
    const bool flat = entries.size() == value.size();
    for (size_t i = 0; i < entries.size(); ++i) {
        const auto& [entry, entryPath] = entries[i];
        auto rank = static_cast<int>(readInt(*entry, entryPath, 0, kMaxWorldSize - 1));
        auto [it, fresh] = positionOf.emplace(rank, i);
        if (!fresh)
            throw ScenarioError(entryPath, "duplicate rank " + std::to_string(rank) + " (also at " +
                                               (flat ? "index " + std::to_string(it->second)
                                                     : entries[it->second].second) +
                                               ")");
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
    auto rankList = readRanks(*ranks, childPath(path, "ranks"), shape, size);
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
