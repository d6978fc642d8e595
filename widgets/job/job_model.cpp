// SPDX-License-Identifier: Apache-2.0
#include "job/job_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include "derived/plan/model_roles.h"

namespace hsdp {

QColor divergenceKindColor(int kind) {
    switch (kind) {
        case 0:  // missing
            return QColor(0xc0, 0x1c, 0x28);
        case 1:  // unexpected
            return QColor(0x81, 0x3d, 0x9c);
        case 2:  // size
            return QColor(0xa8, 0x5a, 0x00);
        case 3:  // dtype
            return QColor(0x98, 0x6a, 0x44);
        case 4:  // stuck
            return QColor(0x1c, 0x71, 0xd8);
        case 5:  // order
            return QColor(0x26, 0x8b, 0x84);
    }
    return QColor(Qt::black);
}

namespace {

QColor mutedText() {
    QColor text = QGuiApplication::palette().color(QPalette::Text);
    text.setAlpha(120);
    return text;
}

}  // namespace

JobDivergenceModel::JobDivergenceModel(QObject* parent) : QAbstractTableModel(parent) {}

void JobDivergenceModel::setJob(const JobData& job) {
    beginResetModel();
    job_ = job;
    endResetModel();
}

int JobDivergenceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(job_.rows.size());
}

int JobDivergenceModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobDivergenceModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const JobDivergenceRow& row = job_.rows[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case KindColumn:
                    return row.first ? tr("%1 (first)").arg(row.kindName) : row.kindName;
                case RankColumn:
                    return QString::number(row.rank);
                case GroupColumn:
                    return row.groupText;
                case SeqColumn:
                    return QString::number(row.seqId);
                case SentenceColumn:
                    return row.sentence;
            }
            return {};
        case SortRole:
            switch (index.column()) {
                case KindColumn:
                    return row.kindName;
                case RankColumn:
                    return qlonglong(row.rank);
                case GroupColumn:
                    return row.groupText;
                case SeqColumn:
                    return qlonglong(row.seqId);
                case SentenceColumn:
                    return row.sentence;
            }
            return {};
        case Qt::ToolTipRole:
            return QStringLiteral("<p>%1</p>").arg(row.sentence.toHtmlEscaped());
        case Qt::ForegroundRole:
            return index.column() == KindColumn ? QVariant(QBrush(divergenceKindColor(row.kind)))
                                                : QVariant();
        case Qt::FontRole:
            if (row.first) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        case ParamsRole:
            return QVariant::fromValue(QList<int>(row.params.begin(), row.params.end()));
        case GroupRole:
            return row.group;
        case BatchRole:
            return row.batch;
        case TransitionRole:
            return row.transition;
    }
    return {};
}

QVariant JobDivergenceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Kind", "Rank", "Process group", "Seq", "What happened"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[section]);
}

namespace {

bool shortOfAStep(const JobCell& cell) {
    return cell.planned > 0 && cell.recorded < cell.planned;
}

}  // namespace

JobCellModel::JobCellModel(QObject* parent) : QAbstractTableModel(parent) {}

void JobCellModel::setJob(const JobData& job) {
    beginResetModel();
    cells_ = job.cells;
    endResetModel();
}

int JobCellModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(cells_.size());
}

int JobCellModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobCellModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const JobCell& cell = cells_[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case GroupColumn:
                    return cell.groupText;
                case RankColumn:
                    return QString::number(cell.rank);
                case RecordedColumn:
                    return QString::number(cell.recorded);
                case PlannedColumn:
                    return cell.planned > 0 ? QString::number(cell.planned) : tr("not planned");
                case DivergencesColumn:
                    if (cell.divergences > 0) return QString::number(cell.divergences);
                    // Nothing listed is not "as planned" for a rank that
                    // recorded less than a step: it stopped before (a hang
                    // elsewhere), which its own divergences explain.
                    return shortOfAStep(cell) ? tr("none listed; recorded %1 of %2")
                                                    .arg(cell.recorded)
                                                    .arg(cell.planned)
                                              : tr("as planned");
            }
            return {};
        case SortRole:
            switch (index.column()) {
                case GroupColumn:
                    return cell.groupText;
                case RankColumn:
                    return qlonglong(cell.rank);
                case RecordedColumn:
                    return qlonglong(cell.recorded);
                case PlannedColumn:
                    return qlonglong(cell.planned);
                case DivergencesColumn:
                    return qlonglong(cell.divergences);
            }
            return {};
        case Qt::ForegroundRole:
            // Matched rows are muted; a row with divergences takes its first's colour.
            if (cell.divergences > 0) return QBrush(divergenceKindColor(cell.firstKind));
            return shortOfAStep(cell) ? QVariant() : QBrush(mutedText());
        case Qt::ToolTipRole:
            return tr("rank %1 in process group %2: %3 collectives recorded, %4 per step "
                      "planned, %5 divergences")
                .arg(cell.rank)
                .arg(cell.groupText)
                .arg(cell.recorded)
                .arg(cell.planned)
                .arg(cell.divergences);
    }
    return {};
}

QVariant JobCellModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Process group", "Rank", "Recorded", "Planned",
                                         "Divergences"};
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::ToolTipRole && section == PlannedColumn)
        return tr(
            "The collectives the plan's optimizer step makes on this rank in this group "
            "(the dumps of one step record as many)");
    if (role != Qt::DisplayRole) return {};
    return tr(titles[section]);
}

}  // namespace hsdp
