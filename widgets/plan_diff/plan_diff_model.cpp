// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace hsdp {

namespace {

// internalId: 0 for a section row, section + 1 for the rows below it.
constexpr quintptr kSectionId = 0;

QList<int> toList(const std::vector<int>& values) {
    return QList<int>(values.begin(), values.end());
}

QVariant trendBrush(PlanDiffTrend trend) {
    switch (trend) {
        case PlanDiffTrend::Better:
            return QBrush(QColor(0x26, 0x80, 0x3a));
        case PlanDiffTrend::Worse:
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        case PlanDiffTrend::Neutral:
            break;
    }
    return {};
}

}  // namespace

PlanDiffModel::PlanDiffModel(QObject* parent) : QAbstractItemModel(parent) {}

void PlanDiffModel::setDiff(const PlanDiffTable& change) {
    beginResetModel();
    change_ = change;
    endResetModel();
}

QString PlanDiffModel::sectionTitle(PlanDiffSection section) {
    switch (section) {
        case PlanDiffSection::Params:
            return tr("Parameters moved");
        case PlanDiffSection::Loads:
            return tr("Loads per owner coordinate");
        case PlanDiffSection::Imbalance:
            return tr("Imbalance and prediction");
        case PlanDiffSection::DiagnosticsAppeared:
            return tr("Diagnostics appeared");
        case PlanDiffSection::DiagnosticsDisappeared:
            return tr("Diagnostics disappeared");
        case PlanDiffSection::Other:
            return tr("Scenario, schedule, TP, ranks");
    }
    return {};
}

// "Title (rows)"; the parameters' rows are of three kinds, counted as the
// summary counts them (paramCountsText), so the two never disagree.
QString PlanDiffModel::sectionHeading(PlanDiffSection section, size_t count) const {
    if (section == PlanDiffSection::Params && change_.diff) {
        const PlanDiff& diff = *change_.diff;
        if (!diff.addedParams.empty() || !diff.removedParams.empty())
            return tr("Parameters (%1): %2").arg(count).arg(paramCountsText(diff));
    }
    // A diagnostic on many params is one diagnostic, as the summary and
    // `diff` count it, with a row per param ("+1 diagnostic" above a
    // "Diagnostics appeared (97)" read as two answers).
    const bool appeared = section == PlanDiffSection::DiagnosticsAppeared;
    if ((appeared || section == PlanDiffSection::DiagnosticsDisappeared) && change_.diff) {
        const auto& items =
            appeared ? change_.diff->appearedDiagnostics : change_.diff->disappearedDiagnostics;
        const size_t diagnostics = groupDiagnostics(items).size();
        if (diagnostics != count)
            return tr("%1 (%2, on %3 rows)").arg(sectionTitle(section)).arg(diagnostics).arg(count);
    }
    return QStringLiteral("%1 (%2)").arg(sectionTitle(section)).arg(count);
}

QModelIndex PlanDiffModel::sectionIndex(PlanDiffSection section) const {
    return index(static_cast<int>(section), 0);
}

QModelIndex PlanDiffModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, kSectionId);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex PlanDiffModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSectionId) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kSectionId);
}

int PlanDiffModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return change_.isValid() ? kChangeSectionCount : 0;
    if (parent.internalId() != kSectionId || parent.column() != 0) return 0;
    return static_cast<int>(change_.sections[static_cast<size_t>(parent.row())].size());
}

int PlanDiffModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PlanDiffModel::sectionData(PlanDiffSection section, int column, int role) const {
    const size_t count = change_.rows(section).size();
    switch (role) {
        case Qt::DisplayRole:
            return column == ItemColumn ? sectionHeading(section, count) : QVariant();
        case Qt::FontRole: {
            QFont font;
            font.setBold(count > 0);
            return font;
        }
        case Qt::ForegroundRole:
            return count == 0 ? QVariant(QBrush(QColor(0x80, 0x80, 0x80))) : QVariant();
        case SectionRole:
            return static_cast<int>(section);
        case ParamRole:
        case GroupRole:
        case BatchRole:
        case TransitionRole:
            return -1;
    }
    return {};
}

QVariant PlanDiffModel::rowData(PlanDiffSection section, const PlanDiffRow& row, int column,
                                int role) const {
    switch (role) {
        case Qt::DisplayRole: {
            const QString* texts[] = {&row.item, &row.what, &row.before, &row.after, &row.delta};
            return *texts[column];
        }
        case Qt::ToolTipRole:
            return row.toolTip.isEmpty() ? QVariant() : row.toolTip;
        case Qt::ForegroundRole:
            return column == DeltaColumn || column == AfterColumn ? trendBrush(row.trend)
                                                                  : QVariant();
        case SectionRole:
            return static_cast<int>(section);
        case TrendRole:
            return static_cast<int>(row.trend);
        case ParamRole:
            return row.param;
        case GroupRole:
            return row.group;
        case BatchRole:
            return row.batch;
        case TransitionRole:
            return row.transition;
        case ParamsRole:
            return QVariant::fromValue(toList(row.params));
    }
    return {};
}

QVariant PlanDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    if (index.internalId() == kSectionId)
        return sectionData(static_cast<PlanDiffSection>(index.row()), index.column(), role);
    const auto section = static_cast<PlanDiffSection>(index.internalId() - 1);
    return rowData(section, change_.rows(section)[static_cast<size_t>(index.row())], index.column(),
                   role);
}

QVariant PlanDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Item", "What changed", "Before", "After", "Δ"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[section]);
}

}  // namespace hsdp
