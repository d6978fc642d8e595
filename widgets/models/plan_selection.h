#pragma once

#include <QObject>
#include <cstdint>
#include <vector>

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
// write back what they just received without loops. The session's owner
// clears it when a new plan arrives whose positions may differ.
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

    void set(const SelectionState& state);
    void selectParam(int param, int group = -1, int batch = -1);
    void selectRanks(std::vector<int> ranks);
    // A run's collective (its seq), with the ranks that took part and the
    // params it moved, so plan views that know nothing of runs follow too.
    void selectCollective(int64_t seq, std::vector<int> ranks, std::vector<int> params);
    void clear() { set({}); }

signals:
    void changed();

private:
    SelectionState state_;
};

}  // namespace hsdp
