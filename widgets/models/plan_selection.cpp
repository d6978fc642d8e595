#include "models/plan_selection.h"

namespace hsdp {

PlanSelection::PlanSelection(QObject* parent) : QObject(parent) {}

void PlanSelection::set(const SelectionState& state) {
    if (state == state_) return;
    state_ = state;
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

}  // namespace hsdp
