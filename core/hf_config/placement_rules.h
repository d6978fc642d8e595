// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hf_config/parallel_layout.h"
#include "hf_config/param_role.h"

namespace hsdp {

// A mesh of the generated scenario: dims of degree 1 are left out, except
// the FSDP dim, which every FSDP2 parameter has.
struct LayoutMesh {
    std::vector<std::string> dimNames;
    std::vector<int64_t> shape;
};

// [dp_replicate,] dp_shard[, tp]: the mesh of every parameter but the stacked experts.
LayoutMesh denseMesh(const ParallelLayout& layout);
// [dp_replicate,] ep[, efsdp][, tp] over the same ranks in the same order
// (ep × efsdp = dp_shard, ep outer), as samples/mixtral_8x7b_expert_mesh.json.
LayoutMesh expertMesh(const ParallelLayout& layout);

bool onExpertMesh(ParamRole role);

// One placement per dim of the role's mesh, as FSDP2 applied after torchtitan's
// TP plan lays the parameter out; nullopt for a buffer (a plain tensor):
//   dp_replicate: Replicate(); tp: Shard(d) on the dim the role splits, else
//   Replicate(); ep: Shard(0) (whole experts); dp_shard: Shard(0), efsdp:
//   Shard(1) — or _StridedShard(dim=d, sf=tp) where TP already split that dim.
std::optional<std::vector<std::string>> placementsFor(ParamRole role, const ParallelLayout& layout);

}  // namespace hsdp
