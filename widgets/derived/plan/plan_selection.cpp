// SPDX-License-Identifier: Apache-2.0
#include "derived/plan/plan_selection.h"

#include "derived/plan/selection_translation.h"

namespace hsdp {

PlanSelection::PlanSelection(QObject* parent) : QObject(parent) {}

void PlanSelection::set(const SelectionState& state) {
    const SelectionState bounded = plan_.isValid() ? boundedSelection(state, plan_) : state;
    if (bounded == state_) return;
    state_ = bounded;
    emit changed();
}

void PlanSelection::set(const SelectionState& state, const PlanResult& of) {
    set(plan_.isValid() ? translatedSelection(state, of, plan_) : state);
}

SelectionState PlanSelection::stateFor(const PlanResult& plan) const {
    return translatedSelection(state_, plan_, plan);
}

int PlanSelection::focusParamFor(const PlanResult& plan) const {
    if (plan.plan == plan_.plan && plan.isValid()) {
        const int param = focusParam();
        return param < static_cast<int>(plan.scenario->params.size()) ? param : -1;
    }
    const SelectionState state = stateFor(plan);
    return state.params.empty() ? -1 : state.params.front();
}

void PlanSelection::setPlan(const PlanResult& plan, const SelectionState& state) {
    const bool samePlan = plan.plan == plan_.plan;
    plan_ = plan;
    if (samePlan && state == state_) return;
    state_ = boundedSelection(state, plan);
    emit changed();
}

void PlanSelection::selectParam(int param, int group, int batch) {
    SelectionState state;
    if (param >= 0) state.params = {param};
    state.group = group;
    state.batch = batch;
    set(state);
}

void PlanSelection::selectRanks(std::vector<int> ranks) {
    SelectionState state = state_;
    state.ranks = std::move(ranks);
    set(state);
}

void PlanSelection::selectCollective(int64_t seq, std::vector<int> ranks, std::vector<int> params) {
    SelectionState state;
    state.collective = seq;
    state.ranks = std::move(ranks);
    state.params = std::move(params);
    set(state);
}

void PlanSelection::selectCollective(int64_t seq, std::vector<int> ranks, std::vector<int> params,
                                     const PlanResult& of) {
    SelectionState state;
    state.collective = seq;
    state.ranks = std::move(ranks);
    state.params = std::move(params);
    set(state, of);
}

}  // namespace hsdp
