// SPDX-License-Identifier: Apache-2.0
#include "plan_tree/plan_tree_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/plan_tree_rows.h"

namespace hsdp {

namespace {

const std::vector<int> kNoRows;

// Internal ids are node index + 1, so 0 never names a node.
quintptr idOf(int node) {
    return static_cast<quintptr>(node) + 1;
}
int nodeOf(quintptr id) {
    return static_cast<int>(id) - 1;
}

QList<int> toList(const std::vector<int>& values) {
    return QList<int>(values.begin(), values.end());
}

}  // namespace

PlanTreeModel::PlanTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void PlanTreeModel::setResult(const PlanResult& result) {
    beginResetModel();
    result_ = result;
    endResetModel();
}

const PlanTreeNode* PlanTreeModel::node(const QModelIndex& index) const {
    if (!index.isValid() || !result_.tree) return nullptr;
    return &result_.tree->nodes[static_cast<size_t>(nodeOf(index.internalId()))];
}

const std::vector<int>& PlanTreeModel::childrenOf(const QModelIndex& parent) const {
    if (!result_.tree) return kNoRows;
    if (!parent.isValid()) return result_.tree->roots;
    return parent.column() == 0 ? node(parent)->children : kNoRows;
}

QModelIndex PlanTreeModel::indexOfParam(int param) const {
    if (!result_.tree || param < 0 || static_cast<size_t>(param) >= result_.tree->paramNode.size())
        return {};
    int id = result_.tree->paramNode[static_cast<size_t>(param)];
    if (id < 0) return {};
    return createIndex(result_.tree->nodes[static_cast<size_t>(id)].row, 0, idOf(id));
}

QModelIndex PlanTreeModel::index(int row, int column, const QModelIndex& parent) const {
    const auto& rows = childrenOf(parent);
    if (row < 0 || static_cast<size_t>(row) >= rows.size() || column < 0 ||
        column >= kPlanTreeColumnCount)
        return {};
    return createIndex(row, column, idOf(rows[static_cast<size_t>(row)]));
}

QModelIndex PlanTreeModel::parent(const QModelIndex& child) const {
    const PlanTreeNode* n = node(child);
    if (!n || n->parent < 0) return {};
    return createIndex(result_.tree->nodes[static_cast<size_t>(n->parent)].row, 0, idOf(n->parent));
}

int PlanTreeModel::rowCount(const QModelIndex& parent) const {
    return static_cast<int>(childrenOf(parent).size());
}

int PlanTreeModel::columnCount(const QModelIndex&) const {
    return kPlanTreeColumnCount;
}

QVariant PlanTreeModel::data(const QModelIndex& index, int role) const {
    const PlanTreeNode* n = node(index);
    return n ? roleData(*n, index.column(), role) : QVariant();
}

QVariant PlanTreeModel::roleData(const PlanTreeNode& n, int column, int role) const {
    auto c = static_cast<size_t>(column);
    switch (role) {
        case Qt::DisplayRole:
            return n.text[c];
        case Qt::ToolTipRole:
            return n.text[c].isEmpty() ? QVariant() : QVariant(n.text[c]);
        case Qt::TextAlignmentRole:
            return column == 2 || column == 3 ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                              : QVariant();
        case Qt::ForegroundRole:
            if (n.hasError) return QBrush(QColor(0xc0, 0x1c, 0x28));
            return n.hasWarning ? QVariant(QBrush(QColor(0xa8, 0x5a, 0x00))) : QVariant();
        case Qt::FontRole:
            if (n.kind == PlanNodeKind::Param || column != 0) return {};
            {
                QFont font;
                font.setBold(true);
                return font;
            }
        case SortRole:
            return column == 2 || column == 3 ? QVariant(n.sortKey[c]) : QVariant(n.text[c]);
        case FilterRole:
            return n.filterText;
        case ParamRole:
            return n.param;
        case GroupRole:
            return n.group;
        case BatchRole:
            return n.batch;
        case TransitionRole:
            return n.transition;
        case ComputeRanksRole:
            return n.param < 0
                       ? QVariant()
                       : QVariant::fromValue(toList(
                             result_.index->params[static_cast<size_t>(n.param)].computeRanks));
    }
    return {};
}

QVariant PlanTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const char* const titles[] = {"Name",        "Owner",      "Numel",      "Bytes",
                                         "Local shape", "Placements", "Diagnostics"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= kPlanTreeColumnCount)
        return {};
    return tr(titles[section]);
}

}  // namespace hsdp
