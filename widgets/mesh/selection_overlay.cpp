// SPDX-License-Identifier: Apache-2.0
#include "mesh/selection_overlay.h"

#include <algorithm>

#include "derived/plan/plan_index.h"

namespace hsdp {

namespace {

std::vector<int> sorted(std::vector<int> ranks) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

void paramOverlay(const PlanResult& result, int param, SelectionOverlay& overlay) {
    const ParamSpec& spec = result.scenario->params.at(static_cast<size_t>(param));
    const ParamPlace& place = result.index->params.at(static_cast<size_t>(param));
    overlay.mesh = result.scenario->findMesh(spec.mesh);
    overlay.ownerRanks = place.ownerRanks;
    overlay.computeRanks = place.computeRanks;
    if (!overlay.mesh || place.group < 0 || place.ownerRanks.empty()) return;
    const Group& group = result.plan->groups[static_cast<size_t>(place.group)];
    auto anchor = overlay.mesh->coordinateOf(place.ownerRanks.front());
    if (!anchor) return;
    if (!group.replicateMeshDims.empty())
        overlay.replicateGroup = sorted(overlay.mesh->groupOver(group.replicateMeshDims, *anchor));
    if (!group.shardMeshDims.empty())
        overlay.shardGroup = sorted(overlay.mesh->groupOver(group.shardMeshDims, *anchor));
}

// Reads only the TP groups' ranks, so a retyped TpPlan changes one line here.
void transitionOverlay(const PlanResult& result, int transition, SelectionOverlay& overlay) {
    const TpPlan& tp = result.plan->tpTransitions.at(static_cast<size_t>(transition));
    for (const auto& group : tp.groups)
        overlay.tpRanks.insert(overlay.tpRanks.end(), group.meshRanks.begin(),
                               group.meshRanks.end());
    overlay.tpRanks = sorted(overlay.tpRanks);
    if (!overlay.mesh && tp.index >= 0 &&
        static_cast<size_t>(tp.index) < result.scenario->tpTransitions.size())
        overlay.mesh = result.scenario->findMesh(
            result.scenario->tpTransitions[static_cast<size_t>(tp.index)].mesh);
}

}  // namespace

SelectionOverlay selectionOverlay(const PlanResult& result, const SelectionState& selection) {
    SelectionOverlay overlay;
    if (!result.isValid()) return overlay;
    overlay.pickedRanks = sorted(selection.ranks);
    if (!selection.params.empty()) {
        paramOverlay(result, selection.params.front(), overlay);
    } else if (selection.group >= 0 &&
               static_cast<size_t>(selection.group) < result.plan->groups.size()) {
        const Group& group = result.plan->groups[static_cast<size_t>(selection.group)];
        overlay.mesh = result.scenario->findMesh(group.mesh);
        overlay.groupRanks = sorted(group.meshRanks);
    }
    if (selection.transition >= 0 &&
        static_cast<size_t>(selection.transition) < result.plan->tpTransitions.size())
        transitionOverlay(result, selection.transition, overlay);
    return overlay;
}

}  // namespace hsdp
