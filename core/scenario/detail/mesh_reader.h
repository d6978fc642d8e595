// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "scenario/json_text.h"
#include "types/mesh.h"

namespace hsdp {

// Largest world (and mesh) a scenario may describe. Every rank gets a thread
// and per-rank tables downstream, so this is a sanity bound, not a promise.
inline constexpr int kMaxWorldSize = 1 << 20;

// A mesh as read, with where it came from for later error messages.
struct MeshSource {
    Mesh mesh;
    std::string path;  // "/mesh" or "/meshes/<name>"
    bool explicitRanks = false;
};

// Reads the `mesh` / `meshes` members of the top-level object (exactly one of
// them must be present). Meshes keep file order.
std::vector<MeshSource> readMeshes(const Json& top);

// Default world size (1 + largest rank), or checks an explicit one against
// every rank; errors point at the offending rank or at `world_size`.
int resolveWorldSize(const Json& top, const std::vector<MeshSource>& meshes);

}  // namespace hsdp
