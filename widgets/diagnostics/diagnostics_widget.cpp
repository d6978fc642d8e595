// SPDX-License-Identifier: Apache-2.0
#include "diagnostics/diagnostics_widget.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "derived/plan/model_roles.h"
#include "derived/plan/plan_index.h"

namespace hsdp {

DiagnosticsWidget::DiagnosticsWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new DiagnosticsModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTreeView(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SortRole);
    view_->setModel(proxy_);
    view_->setRootIsDecorated(false);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->header()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view_);
    connect(view_, &QTreeView::activated, this,
            [this](const QModelIndex& index) { activateRow(proxy_->mapToSource(index).row()); });
}

void DiagnosticsWidget::setResult(const PlanResult& result) {
    result_ = result;
    model_->setResult(result);
    view_->resizeColumnToContents(DiagnosticsModel::SeverityColumn);
    view_->resizeColumnToContents(DiagnosticsModel::CodeColumn);
}

void DiagnosticsWidget::activateRow(int row) {
    QModelIndex index = model_->index(row, 0);
    if (!index.isValid() || !result_.isValid()) return;
    SelectionState state;
    for (int p : index.data(ParamsRole).value<QList<int>>()) state.params.push_back(p);
    QList<int> transitions = index.data(TransitionsRole).value<QList<int>>();
    if (!transitions.isEmpty()) state.transition = transitions.front();
    if (!state.params.empty()) {
        const ParamPlace& place =
            result_.index->params.at(static_cast<size_t>(state.params.front()));
        state.group = place.group;
        state.batch = place.batch;
    }
    selection_->set(state, result_);
}

}  // namespace hsdp
