// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/selection_translation.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "derived/plan/plan_index.h"

namespace hsdp {

namespace {

bool within(int position, size_t size) {
    return position >= 0 && static_cast<size_t>(position) < size;
}

std::vector<int> ranksWithin(const std::vector<int>& ranks, int worldSize) {
    std::vector<int> kept;
    for (int r : ranks)
        if (r >= 0 && r < worldSize) kept.push_back(r);
    return kept;
}

// Param names of `to`, looked up once per translation.
class ParamNames {
public:
    explicit ParamNames(const Scenario& to) {
        for (size_t p = 0; p < to.params.size(); ++p)
            byName_.emplace(to.params[p].name, static_cast<int>(p));
    }
    int find(const std::string& name) const {
        auto it = byName_.find(name);
        return it == byName_.end() ? -1 : it->second;
    }

private:
    std::unordered_map<std::string, int> byName_;
};

// The first of `params` (of `from`) that `to` has, as a param of `to`.
int firstCarried(const std::vector<int>& params, const Scenario& from, const ParamNames& names) {
    for (int p : params)
        if (within(p, from.params.size())) {
            const int carried = names.find(from.params[static_cast<size_t>(p)].name);
            if (carried >= 0) return carried;
        }
    return -1;
}

// A group or a batch is known by the params it holds: its new position is
// where the selected param sits now when it holds that param (an edit that
// splits a batch keeps the one of the param the user looks at), else where
// the first of them that still exists does.
void translateGroup(const SelectionState& state, const PlanResult& from, const PlanResult& to,
                    const ParamNames& names, SelectionState& out) {
    const auto& groups = from.plan->groups;
    if (!within(state.group, groups.size())) return;
    const Group& group = groups[static_cast<size_t>(state.group)];
    const bool hasBatch = within(state.batch, group.batches.size());
    const std::vector<int>& held =
        hasBatch ? group.batches[static_cast<size_t>(state.batch)].params : group.params;
    int carried = -1;
    if (!state.params.empty() &&
        std::find(held.begin(), held.end(), state.params.front()) != held.end())
        carried = firstCarried({state.params.front()}, *from.scenario, names);
    if (carried < 0) carried = firstCarried(held, *from.scenario, names);
    if (carried < 0) return;
    const ParamPlace& place = to.index->params[static_cast<size_t>(carried)];
    out.group = place.group;
    if (hasBatch && place.group >= 0) out.batch = place.batch;
}

int translateTransition(int transition, const PlanResult& from, const PlanResult& to) {
    const auto& old = from.plan->tpTransitions;
    if (!within(transition, old.size())) return -1;
    const std::string& name = old[static_cast<size_t>(transition)].name;
    const auto& now = to.plan->tpTransitions;
    for (size_t t = 0; t < now.size(); ++t)
        if (now[t].name == name) return static_cast<int>(t);
    return -1;
}

}  // namespace

SelectionState boundedSelection(const SelectionState& state, const PlanResult& plan) {
    if (!plan.isValid()) return {};
    SelectionState out;
    for (int p : state.params)
        if (within(p, plan.scenario->params.size())) out.params.push_back(p);
    if (within(state.group, plan.plan->groups.size())) {
        out.group = state.group;
        const Group& group = plan.plan->groups[static_cast<size_t>(state.group)];
        if (within(state.batch, group.batches.size())) out.batch = state.batch;
    }
    if (within(state.transition, plan.plan->tpTransitions.size()))
        out.transition = state.transition;
    out.ranks = ranksWithin(state.ranks, plan.plan->worldSize);
    out.collective = state.collective;
    return out;
}

SelectionState translatedSelection(const SelectionState& state, const PlanResult& from,
                                   const PlanResult& to) {
    if (!from.isValid() || from.plan == to.plan) return boundedSelection(state, to);
    if (!to.isValid()) return {};
    const ParamNames names(*to.scenario);
    SelectionState out;
    for (int p : state.params) {
        if (!within(p, from.scenario->params.size())) continue;
        const int carried = names.find(from.scenario->params[static_cast<size_t>(p)].name);
        if (carried >= 0) out.params.push_back(carried);
    }
    translateGroup(state, from, to, names, out);
    out.transition = translateTransition(state.transition, from, to);
    out.ranks = ranksWithin(state.ranks, to.plan->worldSize);
    out.collective = state.collective;
    return out;
}

}  // namespace hsdp
