// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "plan/diagnostics.h"
#include "types/scenario.h"

namespace hsdp {

// split-factor-mismatch (warning): a `_StridedShard(dim=d, sf=k)` on mesh dim m
// says tensor dim d was split k ways *before* mesh dim m sharded it, by the
// mesh dims after m that shard d too (FSDP2 over a TP-sharded weight:
// [R, SS(0,tp), S(0)]). So k must be the product of those later mesh dims'
// sizes (1 when there are none). Any other factor describes a layout PyTorch
// does not produce for this mesh, typically a factor left behind when the
// `tp` size was edited. Checked for params and TP transitions (src and dst).
void reportSplitFactors(const Scenario& scenario, DiagnosticSink& sink);

}  // namespace hsdp
