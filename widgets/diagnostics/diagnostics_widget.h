// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "diagnostics/diagnostics_model.h"
#include "view/studio_view.h"

class QSortFilterProxyModel;
class QTreeView;

namespace hsdp {

// The plan's diagnostics (severity, code, message), sortable; those of its
// prediction on the chosen cluster (out-of-memory) first. Activating one
// (double click, Enter) selects what it names everywhere: its params (the
// first one in focus, with its group and batch), its TP transition.
class DiagnosticsWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit DiagnosticsWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    // The prediction's out-of-memory error, listed first.
    void showPrediction(const PlanResult& plan) override { setResult(plan); }
    QList<ViewShot> screenshots() const override { return {ViewShot{{}, QSize(1200, 360), {}}}; }

    void setResult(const PlanResult& result);
    QTreeView* view() const { return view_; }
    DiagnosticsModel* model() const { return model_; }
    // What activating `row` (a row of model()) selects.
    void activateRow(int row);

private:
    PlanSelection* selection_;
    PlanResult result_;
    DiagnosticsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTreeView* view_;
};

}  // namespace hsdp
