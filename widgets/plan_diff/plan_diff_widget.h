// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "plan_diff/plan_diff_model.h"
#include "plan_diff/plan_diff_tracker.h"
#include "view/studio_view.h"

class QLabel;
class QToolButton;
class QTreeView;

namespace hsdp {

// The "What changed" panel: which two plans it compares, a one-line summary
// ("12 params moved · worst imbalance 1.31 → 1.05 · +2 −1 diagnostics", or
// "Same plan"), and the PlanDiffModel's sections. It shows what the
// PlanDiffTracker delivers; activating a row selects its param (with its group
// and batch in the current plan), a diagnostic's params, or a group.
class PlanDiffWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    PlanDiffWidget(PlanDiffTracker* tracker, PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    QList<ViewShot> screenshots() const override { return {}; }

    PlanDiffModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    QString titleText() const;
    QString summaryText() const;
    // The reader's message of a file Compare with… could not read, naming
    // it; "" when the last comparison asked for worked.
    QString errorText() const;
    // What activating `index` (an index of model()) selects; false if nothing.
    bool activate(const QModelIndex& index);

signals:
    void compareRequested();  // the user wants to pick a file to compare with

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void fitColumns();
    void setDiff(const PlanDiffTable& change);
    void showError(const QString& message);
    void updateHeader();

    PlanDiffTracker* tracker_;
    PlanSelection* selection_;
    PlanDiffModel* model_;
    QLabel* title_;
    QLabel* summary_;
    QLabel* error_;
    QLabel* hint_;  // in place of the tree while there is nothing to compare
    QToolButton* compareButton_;
    QToolButton* sinceButton_;
    QTreeView* view_;
};

}  // namespace hsdp
