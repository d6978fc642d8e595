// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "plan/diagnostics.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// What one DTensor parameter contributes to grouping (reference:
// extract_param_shard_spec): replicate mesh dims, shard mesh dims and the
// shape-free layout.
struct ParamLayout {
    std::vector<int> replicateMeshDims;
    std::vector<int> shardMeshDims;
    GroupLayout layout;
};

// Why a parameter cannot be grouped; `code` is a diagnostic code.
struct LayoutError {
    std::string code;
    std::string message;
};

// Walks the placements in mesh-dim order; the first offending placement
// decides the error (the reference raises on it).
std::variant<ParamLayout, LayoutError> extractParamLayout(const ParamSpec& param);

// `is_last2d_sharded`: some shard axis has tensor dim >= ndim - 2.
bool isLast2dSharded(const GroupLayout& layout);
// Gathered (`is_shard`): a shard mesh dim and last-2d sharded.
bool isGathered(const Group& group);

// The mesh a parameter or transition names; an empty name means the only mesh.
const Mesh* resolveMesh(const Scenario& scenario, const std::string& meshName);

struct GroupingResult {
    std::vector<int> noCommParams;
    std::vector<int> rejectedParams;
    std::vector<int> adamwParams;  // optimizer "adamw": updated where they live, never grouped
    std::vector<Group> groups;     // batches not yet built
};

// docs/plan.md §1 (reference: group_parameters_for_hsdp). Rejected parameters get an
// error diagnostic and planning goes on without them.
GroupingResult groupParameters(const Scenario& scenario, DiagnosticSink& sink);

}  // namespace hsdp
