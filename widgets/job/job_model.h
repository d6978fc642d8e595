// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>
#include <QColor>

#include "derived/job/job_data.h"

namespace hsdp {

// The colour a divergence kind (DivergenceKind) is marked in.
QColor divergenceKindColor(int kind);

// A job check's divergences as a table: kind, rank, process group, seq id,
// the sentence; the one to look at first is row 0, in bold. Row r is
// JobData::rows[r].
class JobDivergenceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KindColumn, RankColumn, GroupColumn, SeqColumn, SentenceColumn, ColumnCount };

    explicit JobDivergenceModel(QObject* parent = nullptr);
    void setJob(const JobData& job);
    const JobData& job() const { return job_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    JobData job_;
};

// Per recorded process group and member rank: collectives recorded against
// the plan's per step, and the divergences there. Rows that hold none are
// muted; the others are coloured by their first divergence's kind.
class JobCellModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        GroupColumn,
        RankColumn,
        RecordedColumn,
        PlannedColumn,
        DivergencesColumn,
        ColumnCount
    };

    explicit JobCellModel(QObject* parent = nullptr);
    void setJob(const JobData& job);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<JobCell> cells_;
};

}  // namespace hsdp
