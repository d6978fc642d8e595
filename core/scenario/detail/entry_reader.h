// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "scenario/json_text.h"
#include "types/mesh.h"
#include "types/scenario.h"

namespace hsdp {

// One entry of `params` / `tp_transitions` (not a repeat block). The name is
// returned as written ("layer{i}.w"); `index` is set by the expansion.
// `meshes` are the scenario's meshes, for the `mesh` name and placement counts.
ParamSpec readParamEntry(const Json& value, const std::string& path,
                         const std::vector<Mesh>& meshes);
TpTransition readTransitionEntry(const Json& value, const std::string& path,
                                 const std::vector<Mesh>& meshes);

// Global tensor shape: ints >= 1 (empty for a scalar); numel must fit in int64.
std::vector<int64_t> readTensorShape(const Json& value, const std::string& path);
// One placement per dim of `mesh`, each in an accepted spelling.
std::vector<Placement> readPlacementList(const Json& value, const std::string& path,
                                         const Mesh& mesh);

}  // namespace hsdp
