// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <cstdint>
#include <vector>

#include "derived/plan/plan_result.h"

namespace hsdp {

// What the user has picked, in plan terms. Positions refer to the current
// Plan: `params` are param indices, `group` and `batch` positions in
// Plan::groups and Group::batches, `transition` a position in
// Plan::tpTransitions, `ranks` global ranks, `collective` a run's
// collective by its global sequence id (TraceEvent::seq: the step of the
// step-by-step view, a bar of the trace). -1 / empty: nothing.
struct SelectionState {
    std::vector<int> params;
    int group = -1;
    int batch = -1;
    std::vector<int> ranks;
    int transition = -1;
    int64_t collective = -1;

    bool operator==(const SelectionState&) const = default;
    bool isEmpty() const { return *this == SelectionState{}; }
};

// The one selection every view shares. A view that lets the user pick
// something calls set() (or a select* shortcut); every view listens to
// changed() and shows the new state (the mesh view's overlays, the tree's
// current row, ...). set() with an equal state emits nothing, so views may
// write back what they just received without loops.
//
// The positions refer to one plan, plan(): the session's owner moves the
// selection to every new plan with setPlan(). A view holds a plan of its own
// (the plan on screen, or the plan its run ran), which is not always
// plan() (a view is handed the new plan before the selection moves; a run
// view keeps the run of an earlier plan), so views read the selection
// through stateFor(their plan) and write positions of another plan through
// set(state, their plan): never an index of one plan into another.
class PlanSelection : public QObject {
    Q_OBJECT
public:
    explicit PlanSelection(QObject* parent = nullptr);

    const SelectionState& state() const { return state_; }
    const std::vector<int>& params() const { return state_.params; }
    int group() const { return state_.group; }
    int batch() const { return state_.batch; }
    const std::vector<int>& ranks() const { return state_.ranks; }
    int transition() const { return state_.transition; }
    int64_t collective() const { return state_.collective; }
    // The param the views focus on: the first selected one, or -1.
    int focusParam() const { return state_.params.empty() ? -1 : state_.params.front(); }

    // The plan the positions refer to (invalid until the first setPlan: then
    // positions are taken as they are, bounded by the reader's plan).
    const PlanResult& plan() const { return plan_; }
    // The state in the positions of `plan`: the same plan's as is, another's
    // carried by name (translatedSelection), what it lacks dropped.
    SelectionState stateFor(const PlanResult& plan) const;
    int focusParamFor(const PlanResult& plan) const;
    // Moves the selection to `plan` with `state` (positions of `plan`); one
    // changed() if anything differs.
    void setPlan(const PlanResult& plan, const SelectionState& state);

    void set(const SelectionState& state);
    // A state in the positions of `of` (a run view's plan), carried to plan().
    void set(const SelectionState& state, const PlanResult& of);
    void selectParam(int param, int group = -1, int batch = -1);
    void selectRanks(std::vector<int> ranks);
    // A run's collective (its seq), with the ranks that took part and the
    // params it moved, so plan views that know nothing of runs follow too.
    void selectCollective(int64_t seq, std::vector<int> ranks, std::vector<int> params);
    // The same with `params` of `of`, the plan the run ran.
    void selectCollective(int64_t seq, std::vector<int> ranks, std::vector<int> params,
                          const PlanResult& of);
    void clear() { set({}); }

signals:
    void changed();

private:
    PlanResult plan_;
    SelectionState state_;
};

}  // namespace hsdp
