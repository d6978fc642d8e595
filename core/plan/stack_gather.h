// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "plan/diagnostics.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// stack-dim-gathered (warning): a param of a gathered group with more than
// two dims (a stack of matrices, such as an MoE layer's experts) that is also
// sharded along a stack dim. Its group all-gathers over every shard mesh dim,
// the stack dim's too, although Newton–Schulz works on each matrix of the
// stack, the last two dims: each rank that assembles the param receives the
// other stack slices' matrices for nothing. The message gives those bytes per
// rank, and the mesh dims the gather could have stayed within.
void reportStackGathers(const Scenario& scenario, const std::vector<Group>& groups,
                        DiagnosticSink& sink);

// The bytes a rank that assembles `param` whole receives beyond the stack
// slices it holds (0 when no stack dim is sharded over a mesh dim of size > 1).
int64_t stackBytesGatheredForNothing(const ParamSpec& param, const std::vector<int64_t>& meshShape);

}  // namespace hsdp
