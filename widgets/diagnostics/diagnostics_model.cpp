// SPDX-License-Identifier: Apache-2.0
#include "diagnostics/diagnostics_model.h"

#include <QBrush>
#include <QColor>

#include "derived/plan/model_roles.h"
#include "derived/run/plan_prediction.h"

namespace hsdp {

namespace {

QList<int> toList(const std::vector<int>& values) {
    return QList<int>(values.begin(), values.end());
}

QColor severityColor(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return QColor(0xc0, 0x1c, 0x28);
        case Severity::Warning:
            return QColor(0xa8, 0x5a, 0x00);
        case Severity::Info:
            break;
    }
    return QColor(0x1c, 0x71, 0xd8);
}

}  // namespace

DiagnosticsModel::DiagnosticsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiagnosticsModel::setResult(const PlanResult& result) {
    beginResetModel();
    plan_ = result.plan;
    prediction_ = result.prediction;
    endResetModel();
}

size_t DiagnosticsModel::predictedCount() const {
    return prediction_ ? prediction_->diagnostics.size() : 0;
}

const Diagnostic& DiagnosticsModel::diagnosticAt(int row) const {
    const auto r = static_cast<size_t>(row);
    return r < predictedCount() ? prediction_->diagnostics[r]
                                : plan_->diagnostics[r - predictedCount()];
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !plan_
               ? 0
               : static_cast<int>(predictedCount() + plan_->diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::display(const Diagnostic& diagnostic, int column) const {
    switch (column) {
        case SeverityColumn:
            return QString::fromStdString(std::string(severityName(diagnostic.severity)));
        case CodeColumn:
            return QString::fromStdString(diagnostic.code);
        case MessageColumn:
            return QString::fromStdString(diagnostic.message);
    }
    return {};
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Diagnostic& diagnostic = diagnosticAt(index.row());
    switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            return display(diagnostic, index.column());
        case Qt::ToolTipRole:
            // As rich text, which QToolTip wraps: a plain one-line tooltip of
            // the out-of-memory message ran off the screen before its remedy.
            return index.column() == MessageColumn
                       ? QVariant(
                             QStringLiteral("<p>%1</p>")
                                 .arg(QString::fromStdString(diagnostic.message).toHtmlEscaped()))
                       : QVariant();
        case Qt::ForegroundRole:
            return index.column() == SeverityColumn
                       ? QVariant(QBrush(severityColor(diagnostic.severity)))
                       : QVariant();
        case FilterRole:
            return QString::fromStdString(diagnostic.code + " " + diagnostic.message).toLower();
        case ParamsRole:
            return QVariant::fromValue(toList(diagnostic.params));
        case TransitionsRole:
            return QVariant::fromValue(toList(diagnostic.transitions));
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Severity", "Code", "Message"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[section]);
}

}  // namespace hsdp
