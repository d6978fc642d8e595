#pragma once

#include <QAbstractItemModel>

#include "models/model_roles.h"
#include "models/plan_change.h"

namespace hsdp {

// The "What changed" tree: one top-level row per ChangeSection (always all
// of them, titled with their count), the section's ChangeRows below. It only
// displays a PlanChange; ParamRole / GroupRole / BatchRole / ParamsRole /
// TransitionRole say what activating a row selects in the current plan.
class ChangesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { ItemColumn, WhatColumn, BeforeColumn, AfterColumn, DeltaColumn, ColumnCount };
    enum Role {
        SectionRole = TransitionsRole + 1,  // int ChangeSection of the row (or of the section)
        TrendRole,                          // int ChangeTrend
    };

    explicit ChangesModel(QObject* parent = nullptr);

    void setChange(const PlanChange& change);
    const PlanChange& change() const { return change_; }
    QModelIndex sectionIndex(ChangeSection section) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString sectionTitle(ChangeSection section);
    // What a section's row says: its title and row count, for the
    // parameters also how many moved, were added and removed.
    QString sectionHeading(ChangeSection section, size_t count) const;

private:
    QVariant sectionData(ChangeSection section, int column, int role) const;
    QVariant rowData(ChangeSection section, const ChangeRow& row, int column, int role) const;

    PlanChange change_;
};

}  // namespace hsdp
