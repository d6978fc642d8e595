#pragma once

#include <QWidget>

#include "models/plan_filter_proxy.h"
#include "models/plan_selection.h"
#include "models/plan_tree_model.h"

class QLineEdit;
class QTreeView;

namespace hsdp {

// The plan tree with its filter box. Selecting a row sets the shared
// selection (a param, a group or batch, a TP transition); a selection made
// elsewhere selects and reveals the matching row.
class PlanTreeWidget : public QWidget {
    Q_OBJECT
public:
    explicit PlanTreeWidget(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    QTreeView* treeView() const { return tree_; }
    QLineEdit* filterEdit() const { return filter_; }
    PlanTreeModel* model() const { return model_; }
    PlanFilterProxy* proxy() const { return proxy_; }

private:
    void onCurrentChanged(const QModelIndex& current);
    void onSelectionChanged();
    void sizeColumns();

    PlanSelection* selection_;
    PlanResult result_;  // the plan the rows show
    PlanTreeModel* model_;
    PlanFilterProxy* proxy_;
    QLineEdit* filter_;
    QTreeView* tree_;
    bool syncing_ = false;
    bool columnsSized_ = false;  // following the selection: do not write it back
};

}  // namespace hsdp
