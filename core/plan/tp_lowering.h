// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/diagnostics.h"
#include "plan/plan.h"
#include "plan/redistribution.h"
#include "types/mesh.h"
#include "types/placement.h"
#include "types/scenario.h"

namespace hsdp {

// Reference classify_tp_transition: identity when src == dst (placement equality
// by kind and arguments), nullopt without a `tp` dim, when a non-tp dim
// differs, for an unsupported pair or a non-sum partial; else all_gather
// (S->R), all_reduce (P(sum)->R) or reduce_scatter (P(sum)->S). A strided
// shard counts as a shard; tensor dims are reported as written.
std::optional<TpClassification> classifyTpTransition(const std::vector<Placement>& src,
                                                     const std::vector<Placement>& dst,
                                                     const std::vector<std::string>& meshDimNames);

// The collective a lowered group runs: reduce_scatter becomes
// all_reduce_shard on a gloo backend (gloo has no reduce-scatter).
TpLoweredOp loweredOp(TpKind kind, const std::string& backend);

// The steps of a lowered op on the tp mesh dim, in their geometric (always
// correct) form; all_reduce_shard is an all-reduce then a local chunk. A
// reference run executes them the reference's way (run/ decides that, not the plan).
std::vector<RedistributionStep> loweredSteps(TpLoweredOp op, int tpDim,
                                             const std::vector<Placement>& src,
                                             const std::vector<Placement>& dst);

// docs/plan.md §5 for one transition on `mesh`. No tp dim: no groups. Per TP group
// (mesh order): not ascending -> fallback "rank-order"; classification null ->
// fallback "unsupported"; identity -> identity; else lowered. Also the steps
// every group runs (`runs`, `steps`) and the generic redistribution.
TpPlan planTpTransition(const TpTransition& transition, const Mesh& mesh,
                        const std::string& backend);

// Every transition of the scenario, with tp-rank-order-fallback (warning) and
// tp-no-tp-dim (info) diagnostics.
std::vector<TpPlan> planTpTransitions(const Scenario& scenario, DiagnosticSink& sink);

}  // namespace hsdp
