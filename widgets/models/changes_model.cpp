#include "models/changes_model.h"

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

QVariant trendBrush(ChangeTrend trend) {
    switch (trend) {
        case ChangeTrend::Better:
            return QBrush(QColor(0x26, 0x80, 0x3a));
        case ChangeTrend::Worse:
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        case ChangeTrend::Neutral:
            break;
    }
    return {};
}

}  // namespace

ChangesModel::ChangesModel(QObject* parent) : QAbstractItemModel(parent) {}

void ChangesModel::setChange(const PlanChange& change) {
    beginResetModel();
    change_ = change;
    endResetModel();
}

QString ChangesModel::sectionTitle(ChangeSection section) {
    switch (section) {
        case ChangeSection::Params:
            return tr("Parameters moved");
        case ChangeSection::Loads:
            return tr("Loads per owner coordinate");
        case ChangeSection::Imbalance:
            return tr("Imbalance");
        case ChangeSection::DiagnosticsAppeared:
            return tr("Diagnostics appeared");
        case ChangeSection::DiagnosticsDisappeared:
            return tr("Diagnostics disappeared");
        case ChangeSection::Other:
            return tr("Scenario, schedule, TP, ranks");
    }
    return {};
}

// "Title (rows)"; the parameters' rows are of three kinds, counted as the
// summary counts them (paramCountsText), so the two never disagree.
QString ChangesModel::sectionHeading(ChangeSection section, size_t count) const {
    if (section == ChangeSection::Params && change_.diff) {
        const PlanDiff& diff = *change_.diff;
        if (!diff.addedParams.empty() || !diff.removedParams.empty())
            return tr("Parameters (%1): %2").arg(count).arg(paramCountsText(diff));
    }
    return QStringLiteral("%1 (%2)").arg(sectionTitle(section)).arg(count);
}

QModelIndex ChangesModel::sectionIndex(ChangeSection section) const {
    return index(static_cast<int>(section), 0);
}

QModelIndex ChangesModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, kSectionId);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex ChangesModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSectionId) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kSectionId);
}

int ChangesModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return change_.isValid() ? kChangeSectionCount : 0;
    if (parent.internalId() != kSectionId || parent.column() != 0) return 0;
    return static_cast<int>(change_.sections[static_cast<size_t>(parent.row())].size());
}

int ChangesModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ChangesModel::sectionData(ChangeSection section, int column, int role) const {
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

QVariant ChangesModel::rowData(ChangeSection section, const ChangeRow& row, int column,
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

QVariant ChangesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    if (index.internalId() == kSectionId)
        return sectionData(static_cast<ChangeSection>(index.row()), index.column(), role);
    const auto section = static_cast<ChangeSection>(index.internalId() - 1);
    return rowData(section, change_.rows(section)[static_cast<size_t>(index.row())], index.column(),
                   role);
}

QVariant ChangesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Item", "What changed", "Before", "After", "Δ"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[section]);
}

}  // namespace hsdp
