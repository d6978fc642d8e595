// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "verification/verification_model.h"
#include "view/studio_view.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace hsdp {

// The "Verification" panel: the run's summary line (mode, verified or not,
// counts), the engine's error for a failed run, and the VerificationModel's
// sections behind a filter box ("mismatch", "error", a name). Failed rows
// are tinted and start expanded, so the mismatch texts are in view.
// Activating a row selects its parameter (with its group and batch), a
// mismatch row also its rank, a transition row the transition; rows of a
// run made on an older plan select nothing (their positions may differ).
class VerificationWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit VerificationWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setCurrentPlan(plan); }
    void showRun(const RunData& run) override { setRun(run); }
    QList<ViewShot> screenshots() const override;

    void setRun(const RunData& run);
    // The plan on screen now; a run of another plan is marked as such.
    void setCurrentPlan(const PlanResult& plan);

    VerificationModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTreeView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filter_; }
    QString summaryText() const;
    QString errorText() const;
    // What activating `index` (an index of model()) selects; false if nothing.
    bool activate(const QModelIndex& index);

private:
    bool runIsOfCurrentPlan() const;
    void expandFailures();
    void updateHeader();

    PlanSelection* selection_;
    VerificationModel* model_;
    QSortFilterProxyModel* proxy_;
    std::shared_ptr<const Plan> currentPlan_;
    QLabel* summary_;
    QLabel* note_;
    QLabel* error_;
    QLineEdit* filter_;
    QLabel* hint_;  // in place of the tree before the first run
    QTreeView* view_;
};

}  // namespace hsdp
