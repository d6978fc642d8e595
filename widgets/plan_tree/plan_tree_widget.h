// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTimer>
#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "plan_tree/plan_filter_proxy.h"
#include "plan_tree/plan_tree_model.h"
#include "view/studio_view.h"

class QLabel;
class QLineEdit;
class QTreeView;

namespace hsdp {

// The plan tree with its filter box. Selecting a row sets the shared
// selection (a param, a group or batch, a TP transition); a selection made
// elsewhere selects and reveals the matching row.
class PlanTreeWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit PlanTreeWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    QList<ViewShot> screenshots() const override { return {ViewShot{{}, QSize(1400, 800), {}}}; }
    QImage picture(const QSize& size, const QString& part) override;

    void setResult(const PlanResult& result);
    QTreeView* treeView() const { return tree_; }
    QLineEdit* filterEdit() const { return filter_; }
    // Shown when the filter leaves no row (a filter kept from the previous
    // file, say): "No params match 'x'" and its Clear link.
    QLabel* noMatchLabel() const { return noMatch_; }
    PlanTreeModel* model() const { return model_; }
    PlanFilterProxy* proxy() const { return proxy_; }
    // The text a cell shows before any shortening, compact so that owner,
    // numel and placements fit a narrow dock beside the name: placements in
    // the scenario's notation ([R, SS(0,4), S(0)]), numel as 1.05 G, owner
    // as "(0) → 0-15"; the tooltips keep the model's full text.
    static QString shownText(const QModelIndex& index);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onCurrentChanged(const QModelIndex& current);
    void onSelectionChanged();
    void measureColumns();
    void fitColumns();
    void updateNoMatch();

    PlanSelection* selection_;
    PlanResult result_;  // the plan the rows show
    PlanTreeModel* model_;
    PlanFilterProxy* proxy_;
    QLineEdit* filter_;
    QLabel* noMatch_;
    QTreeView* tree_;
    bool syncing_ = false;         // following the selection: do not write it back
    bool fitting_ = false;         // our own column sizing, not the user's
    bool userSized_ = false;       // the user dragged a column: the widths stay theirs
    int contentWidths_[3] = {};    // owner, numel, placements of the widest row
    int nameWidth_ = 0;            // the widest param name, with its indentation
    bool measurePending_ = false;  // a plan's widths not measured yet
    QTimer fitTimer_;
};

}  // namespace hsdp
