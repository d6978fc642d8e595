#include "views/plan_tree_widget.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>
#include <iterator>

#include "models/model_roles.h"

namespace hsdp {

PlanTreeWidget::PlanTreeWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new PlanTreeModel(this)),
      proxy_(new PlanFilterProxy(this)),
      filter_(new QLineEdit(this)),
      tree_(new QTreeView(this)) {
    proxy_->setSourceModel(model_);
    filter_->setPlaceholderText(tr("Filter: name, diagnostic code, or \"rank 5\" (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    tree_->setModel(proxy_);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(-1, Qt::AscendingOrder);  // plan order until the user sorts
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(filter_);
    layout->addWidget(tree_);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilter(text);
        if (!text.isEmpty()) tree_->expandAll();
    });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &PlanTreeWidget::onCurrentChanged);
    connect(selection_, &PlanSelection::changed, this, &PlanTreeWidget::onSelectionChanged);
}

void PlanTreeWidget::setResult(const PlanResult& result) {
    result_ = result;
    model_->setResult(result);
    tree_->expandToDepth(1);
    onSelectionChanged();
    if (!columnsSized_) sizeColumns();
}

// Widths that fit typical content (an owner with its ranks, PyTorch placements)
// once; after that the user's widths stay.
void PlanTreeWidget::sizeColumns() {
    const int widths[] = {320, 200, 130, 130, 190, 420};
    for (int c = 0; c < static_cast<int>(std::size(widths)); ++c)
        tree_->setColumnWidth(c, widths[c]);
    columnsSized_ = true;
}

void PlanTreeWidget::onCurrentChanged(const QModelIndex& current) {
    if (!current.isValid() || syncing_) return;
    SelectionState state;
    int param = current.data(ParamRole).toInt();
    if (param >= 0) state.params = {param};
    state.group = current.data(GroupRole).toInt();
    state.batch = current.data(BatchRole).toInt();
    state.transition = current.data(TransitionRole).toInt();
    state.ranks = selection_->stateFor(result_).ranks;  // a picked rank stays picked
    selection_->set(state, result_);
}

void PlanTreeWidget::onSelectionChanged() {
    int param = selection_->focusParamFor(result_);
    QModelIndex current = tree_->currentIndex();
    if (param < 0 || (current.isValid() && current.data(ParamRole).toInt() == param)) return;
    QModelIndex row = proxy_->mapFromSource(model_->indexOfParam(param));
    if (!row.isValid()) return;  // filtered out
    syncing_ = true;
    tree_->setCurrentIndex(row);
    syncing_ = false;
    tree_->scrollTo(row, QAbstractItemView::PositionAtCenter);
}

}  // namespace hsdp
