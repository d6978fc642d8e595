// SPDX-License-Identifier: Apache-2.0
#include "scenario/detail/entry_reader.h"

#include <limits>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

DType readDType(const Json& value, const std::string& path) {
    std::optional<DType> dtype;
    if (value.is_string()) dtype = parseDType(value.get_ref<const std::string&>());
    if (!dtype)
        failExpected(path,
                     "a dtype: \"f32\", \"bf16\", \"f16\", \"f64\" (or \"float32\", "
                     "\"bfloat16\", \"float16\", \"float64\", \"float\", \"half\", "
                     "\"double\", each also with PyTorch's \"torch.\" prefix)",
                     value);
    return *dtype;
}

std::string meshNameList(const std::vector<Mesh>& meshes) {
    std::string out;
    for (const auto& m : meshes) out += (out.empty() ? "\"" : ", \"") + m.name + "\"";
    return out;
}

// The mesh an entry lives on. Without a `mesh` key: the only mesh; with
// several meshes an error when `required`, else "main" or the first mesh.
const Mesh& resolveMesh(const Json& entry, const std::string& path, const std::vector<Mesh>& meshes,
                        bool required) {
    if (const Json* given = findMember(entry, "mesh")) {
        std::string at = childPath(path, "mesh");
        std::string name = readString(*given, at);
        for (const auto& m : meshes)
            if (m.name == name) return m;
        throw ScenarioError(
            at, "unknown mesh \"" + name + "\"; expected one of " + meshNameList(meshes));
    }
    if (meshes.size() == 1) return meshes.front();
    if (required)
        throw ScenarioError(path,
                            "missing required key \"mesh\": the scenario has several "
                            "meshes (" +
                                meshNameList(meshes) + ")");
    for (const auto& m : meshes)
        if (m.name == "main") return m;
    return meshes.front();
}

// "muon" (the default) or "adamw".
ParamOptimizer readOptimizer(const Json& value, const std::string& path) {
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        if (text == "muon") return ParamOptimizer::Muon;
        if (text == "adamw") return ParamOptimizer::AdamW;
    }
    failExpected(path, "an optimizer: \"muon\" (the default) or \"adamw\"", value);
}

}  // namespace

std::vector<int64_t> readTensorShape(const Json& value, const std::string& path) {
    readArray(value, path, "dim sizes (integers >= 1)");
    std::vector<int64_t> shape;
    int64_t numel = 1;
    for (size_t i = 0; i < value.size(); ++i) {
        int64_t dim = readInt(value[i], childPath(path, i), 1);
        if (numel > std::numeric_limits<int64_t>::max() / dim)
            throw ScenarioError(path,
                                "the number of elements (product of the shape) "
                                "overflows a 64-bit integer");
        numel *= dim;
        shape.push_back(dim);
    }
    return shape;
}

std::vector<Placement> readPlacementList(const Json& value, const std::string& path,
                                         const Mesh& mesh) {
    readArray(value, path, "placements (one per mesh dim)");
    if (static_cast<int>(value.size()) != mesh.ndim())
        throw ScenarioError(path, "expected " + std::to_string(mesh.ndim()) +
                                      " placements (one per dim of mesh \"" + mesh.name +
                                      "\"), got " + std::to_string(value.size()));
    std::vector<Placement> placements;
    for (size_t i = 0; i < value.size(); ++i) {
        std::optional<Placement> p;
        if (value[i].is_string()) p = parsePlacement(value[i].get_ref<const std::string&>());
        if (!p)
            failExpected(childPath(path, i),
                         "a placement: R, S(d), SS(d,k), P(op) or PyTorch's Replicate(), "
                         "Shard(dim=d), _StridedShard(dim=d, sf=k), Partial(op)",
                         value[i]);
        placements.push_back(*p);
    }
    return placements;
}

ParamSpec readParamEntry(const Json& value, const std::string& path,
                         const std::vector<Mesh>& meshes) {
    requireObject(value, path, "a param",
                  {"name", "shape", "dtype", "mesh", "placements", "requires_grad", "optimizer"});
    ParamSpec param;
    param.name = readString(requireMember(value, path, "name"), childPath(path, "name"));
    param.shape = readTensorShape(requireMember(value, path, "shape"), childPath(path, "shape"));
    param.dtype = readDType(requireMember(value, path, "dtype"), childPath(path, "dtype"));
    const Json* placements = findMember(value, "placements");
    bool isDTensor = placements && !placements->is_null();
    const Mesh& mesh = resolveMesh(value, path, meshes, isDTensor);
    param.mesh = mesh.name;
    if (isDTensor)
        param.placements = readPlacementList(*placements, childPath(path, "placements"), mesh);
    if (const Json* grad = findMember(value, "requires_grad"))
        param.requiresGrad = readBool(*grad, childPath(path, "requires_grad"));
    if (const Json* optimizer = findMember(value, "optimizer"))
        param.optimizer = readOptimizer(*optimizer, childPath(path, "optimizer"));
    return param;
}

TpTransition readTransitionEntry(const Json& value, const std::string& path,
                                 const std::vector<Mesh>& meshes) {
    requireObject(value, path, "a TP transition", {"name", "mesh", "shape", "dtype", "src", "dst"});
    TpTransition t;
    t.name = readString(requireMember(value, path, "name"), childPath(path, "name"));
    t.shape = readTensorShape(requireMember(value, path, "shape"), childPath(path, "shape"));
    t.dtype = readDType(requireMember(value, path, "dtype"), childPath(path, "dtype"));
    const Mesh& mesh = resolveMesh(value, path, meshes, /*required=*/true);
    t.mesh = mesh.name;
    t.src = readPlacementList(requireMember(value, path, "src"), childPath(path, "src"), mesh);
    t.dst = readPlacementList(requireMember(value, path, "dst"), childPath(path, "dst"), mesh);
    return t;
}

}  // namespace hsdp
