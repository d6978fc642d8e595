// SPDX-License-Identifier: Apache-2.0
#include "job/job_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "derived/plan/model_roles.h"
#include "painting/secondary_text.h"

namespace hsdp {

namespace {

QTreeView* tableView(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTreeView(parent);
    view->setModel(model);
    view->setRootIsDecorated(false);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->header()->setStretchLastSection(true);
    return view;
}

}  // namespace

JobWidget::JobWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new JobDivergenceModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      cellModel_(new JobCellModel(this)),
      cellProxy_(new QSortFilterProxyModel(this)),
      summary_(new QLabel(this)),
      cancel_(new QToolButton(this)),
      note_(new QLabel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SortRole);
    cellProxy_->setSourceModel(cellModel_);
    cellProxy_->setSortRole(SortRole);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showSummary();
    cancel_->setText(tr("Cancel"));
    cancel_->hide();
    connect(cancel_, &QToolButton::clicked, this, &JobWidget::cancelRequested);
    note_->setWordWrap(true);
    note_->setPalette(secondaryText(note_->palette()));
    note_->hide();

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    divergences_ = tableView(proxy_, splitter);
    cells_ = tableView(cellProxy_, splitter);
    splitter->addWidget(divergences_);
    splitter->addWidget(cells_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(cancel_, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(note_);

    connect(divergences_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) selectRow(proxy_->mapToSource(current).row());
            });
    connect(divergences_, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const int row = proxy_->mapToSource(index).row();
        selectRow(row);
        emit divergenceActivated(row);
    });
}

QList<ViewShot> JobWidget::screenshots() const {
    if (!job().isValid()) return {};
    return {ViewShot{{}, QSize(1200, 360), {}}};
}

void JobWidget::setJob(const JobData& job) {
    const bool opened = job.opened;
    model_->setJob(job);
    cellModel_->setJob(job);
    setNote({});
    if (!busy_) showSummary();
    if (!job.isValid()) return;
    for (int column : {JobDivergenceModel::KindColumn, JobDivergenceModel::RankColumn,
                       JobDivergenceModel::GroupColumn, JobDivergenceModel::SeqColumn})
        divergences_->resizeColumnToContents(column);
    for (int column = 0; column < JobCellModel::DivergencesColumn; ++column)
        cells_->resizeColumnToContents(column);
    // A record just opened starts at the divergence to look at first.
    if (opened && !job.rows.empty()) setCurrentRow(0);
}

void JobWidget::setBusy(bool busy, const QString& text) {
    busy_ = busy;
    cancel_->setVisible(busy);
    if (busy)
        summary_->setText(text);
    else
        showSummary();
}

void JobWidget::showSummary() {
    summary_->setText(job().isValid()
                          ? job().summary()
                          : tr("No job record open: File ▸ Open Job Record… (Ctrl+J) or drop a "
                               "folder of Flight Recorder dumps on the window to hold a job "
                               "against this plan."));
}

void JobWidget::setNote(const QString& text) {
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

QString JobWidget::note() const {
    return note_->text();
}

QString JobWidget::summaryText() const {
    return summary_->text();
}

int JobWidget::currentRow() const {
    const QModelIndex current = divergences_->currentIndex();
    return current.isValid() ? proxy_->mapToSource(current).row() : -1;
}

void JobWidget::setCurrentRow(int row) {
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (!index.isValid()) return;
    divergences_->setCurrentIndex(index);
    selectRow(row);  // also when it was current already
}

void JobWidget::selectRow(int row) {
    const JobData& data = job();
    if (row < 0 || size_t(row) >= data.rows.size() || !data.plan.isValid() || !selection_) return;
    const JobDivergenceRow& d = data.rows[size_t(row)];
    SelectionState state;
    state.params = d.params;
    state.group = d.group;
    state.batch = d.batch;
    state.transition = d.transition;
    for (int64_t rank : d.groupRanks) state.ranks.push_back(int(rank));
    selection_->set(state, data.plan);
}

}  // namespace hsdp
