// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractItemModel>

#include "derived/plan/plan_result.h"

namespace hsdp {

struct PlanTreeNode;

// The plan as a tree (meshes > groups > batches > params, then no-comm,
// rejected and TP transitions). setResult() resets and shares the rows that
// the session built off the GUI thread; nothing is computed here.
class PlanTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    explicit PlanTreeModel(QObject* parent = nullptr);

    void setResult(const PlanResult& result);
    const PlanResult& result() const { return result_; }

    // The index of param `param`'s row in column 0, invalid if it has none.
    QModelIndex indexOfParam(int param) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const PlanTreeNode* node(const QModelIndex& index) const;
    const std::vector<int>& childrenOf(const QModelIndex& parent) const;
    QVariant roleData(const PlanTreeNode& node, int column, int role) const;

    PlanResult result_;
};

}  // namespace hsdp
