// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractItemModel>

#include "derived/plan/model_roles.h"
#include "derived/run/run_data.h"

namespace hsdp {

// The verification of one run as a tree: three sections (parameters, TP
// transitions, parameters not run), always present and titled with their
// count; under them one row per ParamRunResult / TpRunResult / NotRunParam
// in the engine's order, and under a parameter or transition one row per
// Mismatch with the engine's text ("rank 0 expected rows 2..3 got rows
// 4..5"). It only displays the RunResult. ParamRole / GroupRole / BatchRole
// (from the plan that ran), TransitionRole and RankRole say what activating
// a row selects.
class VerificationModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Section { ParamsSection, TransitionsSection, NotRunSection, SectionCount };
    enum Column {
        NameColumn,
        VerdictColumn,
        GatherColumn,
        StepColumn,
        ReplicasColumn,
        PathColumn,
        DetailColumn,
        ColumnCount
    };
    enum Role {
        RankRole = TransitionsRole + 1,  // int: the rank of a mismatch row, -1 otherwise
        FailedRole,                      // bool: a mismatch, an error or diverged replicas
        SectionRole,                     // int Section of the row (or of the section)
    };

    explicit VerificationModel(QObject* parent = nullptr);

    void setRun(const RunData& run);
    const RunData& run() const { return run_; }
    QModelIndex sectionIndex(Section section) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // A row's place: its section, the item in it (-1 for a section row) and
    // the mismatch under that item (-1 for an item row).
    struct Place {
        int section = 0;
        int item = -1;
        int mismatch = -1;
    };
    Place place(const QModelIndex& index) const;
    int itemCount(int section) const;
    const std::vector<Mismatch>* mismatches(int section, int item) const;
    QVariant sectionData(int section, int column, int role) const;
    QVariant paramData(const ParamRunResult& param, int column, int role) const;
    QVariant transitionData(const TpRunResult& transition, int column, int role) const;
    QVariant notRunData(const NotRunParam& param, int column, int role) const;
    QVariant mismatchData(const Place& place, const Mismatch& mismatch, int column, int role) const;
    QVariant paramPlace(int param, int role) const;

    RunData run_;
};

}  // namespace hsdp
