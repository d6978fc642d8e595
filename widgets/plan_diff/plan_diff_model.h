// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractItemModel>

#include "derived/plan/model_roles.h"
#include "plan_diff/plan_diff_table.h"

namespace hsdp {

// The "What changed" tree: one top-level row per PlanDiffSection (always all
// of them, titled with their count), the section's PlanDiffRows below. It only
// displays a PlanDiffTable; ParamRole / GroupRole / BatchRole / ParamsRole /
// TransitionRole say what activating a row selects in the current plan.
class PlanDiffModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { ItemColumn, WhatColumn, BeforeColumn, AfterColumn, DeltaColumn, ColumnCount };
    enum Role {
        SectionRole = TransitionsRole + 1,  // int PlanDiffSection of the row (or of the section)
        TrendRole,                          // int PlanDiffTrend
    };

    explicit PlanDiffModel(QObject* parent = nullptr);

    void setDiff(const PlanDiffTable& change);
    const PlanDiffTable& change() const { return change_; }
    QModelIndex sectionIndex(PlanDiffSection section) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString sectionTitle(PlanDiffSection section);
    // What a section's row says: its title and row count, for the
    // parameters also how many moved, were added and removed.
    QString sectionHeading(PlanDiffSection section, size_t count) const;

private:
    QVariant sectionData(PlanDiffSection section, int column, int role) const;
    QVariant rowData(PlanDiffSection section, const PlanDiffRow& row, int column, int role) const;

    PlanDiffTable change_;
};

}  // namespace hsdp
