// SPDX-License-Identifier: Apache-2.0
#include "hf_config/placement_rules.h"

namespace hsdp {

namespace {

void addDim(LayoutMesh& mesh, const char* name, int64_t degree, bool always) {
    if (degree == 1 && !always) return;
    mesh.dimNames.emplace_back(name);
    mesh.shape.push_back(degree);
}

// The tensor dim torchtitan's TP plan splits for this role; -1: none.
int tpShardDim(ParamRole role) {
    switch (role) {
        case ParamRole::Embedding:
        case ParamRole::ColWise:
            return 0;
        case ParamRole::RowWise:
        case ParamRole::ExpertColWise:
            return 1;
        case ParamRole::ExpertRowWise:
            return 2;
        case ParamRole::Replicated:
        case ParamRole::Buffer:
            return -1;
    }
    return -1;
}

std::string shard(int dim) {
    return "Shard(" + std::to_string(dim) + ")";
}

// FSDP2 shards `dim`; after TP split it k ways the shard is strided.
std::string fsdpShard(int dim, int tpDim, int64_t tp) {
    if (tp > 1 && tpDim == dim)
        return "_StridedShard(dim=" + std::to_string(dim) + ", sf=" + std::to_string(tp) + ")";
    return shard(dim);
}

}  // namespace

LayoutMesh denseMesh(const ParallelLayout& l) {
    LayoutMesh mesh;
    addDim(mesh, "dp_replicate", l.dpReplicate, false);
    addDim(mesh, "dp_shard", l.dpShard, true);
    addDim(mesh, "tp", l.tp, false);
    return mesh;
}

LayoutMesh expertMesh(const ParallelLayout& l) {
    LayoutMesh mesh;
    addDim(mesh, "dp_replicate", l.dpReplicate, false);
    addDim(mesh, "ep", l.ep, true);
    addDim(mesh, "efsdp", l.expertFsdp(), false);
    addDim(mesh, "tp", l.tp, false);
    return mesh;
}

bool onExpertMesh(ParamRole role) {
    return role == ParamRole::ExpertColWise || role == ParamRole::ExpertRowWise;
}

std::optional<std::vector<std::string>> placementsFor(ParamRole role, const ParallelLayout& l) {
    if (role == ParamRole::Buffer) return std::nullopt;
    const int tpDim = tpShardDim(role);
    const LayoutMesh mesh = onExpertMesh(role) ? expertMesh(l) : denseMesh(l);
    std::vector<std::string> out;
    for (const std::string& dim : mesh.dimNames) {
        if (dim == "dp_replicate")
            out.emplace_back("Replicate()");
        else if (dim == "dp_shard")
            out.push_back(fsdpShard(0, tpDim, l.tp));
        else if (dim == "ep")
            out.push_back(shard(0));
        else if (dim == "efsdp")
            out.push_back(fsdpShard(1, tpDim, l.tp));
        else  // tp
            out.push_back(tpDim < 0 ? "Replicate()" : shard(tpDim));
    }
    return out;
}

}  // namespace hsdp
