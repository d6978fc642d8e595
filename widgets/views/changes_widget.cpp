#include "views/changes_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include "views/secondary_text.h"

namespace hsdp {

namespace {

constexpr int kExpandedRows = 40;

}  // namespace

ChangesWidget::ChangesWidget(ChangeTracker* tracker, PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      tracker_(tracker),
      selection_(selection),
      model_(new ChangesModel(this)),
      title_(new QLabel(this)),
      summary_(new QLabel(this)),
      error_(new QLabel(this)),
      hint_(new QLabel(this)),
      compareButton_(new QToolButton(this)),
      sinceButton_(new QToolButton(this)),
      view_(new QTreeView(this)) {
    QFont bold = summary_->font();
    bold.setBold(true);
    summary_->setFont(bold);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #c01c28;"));
    error_->setWordWrap(true);
    error_->hide();
    hint_->setWordWrap(true);
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setPalette(secondaryText(hint_->palette()));
    hint_->setMargin(12);
    compareButton_->setText(tr("Compare with…"));
    compareButton_->setToolTip(tr("Compare the current plan with another scenario file"));
    sinceButton_->setText(tr("Since last change"));
    sinceButton_->setToolTip(tr("Compare each new plan of this file with the one it replaces"));
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->header()->setStretchLastSection(true);
    view_->header()->setSectionResizeMode(QHeaderView::Interactive);

    // One header line (summary, what is compared, buttons): the dock is often short.
    title_->setPalette(secondaryText(title_->palette()));
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* header = new QHBoxLayout;
    header->setSpacing(12);
    header->addWidget(summary_);
    header->addWidget(title_, 1);
    header->addWidget(compareButton_);
    header->addWidget(sinceButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(error_);
    layout->addWidget(view_, 1);
    layout->addWidget(hint_, 1);

    connect(compareButton_, &QToolButton::clicked, this, &ChangesWidget::compareRequested);
    connect(sinceButton_, &QToolButton::clicked, tracker_, &ChangeTracker::compareSinceLastChange);
    connect(tracker_, &ChangeTracker::changeReady, this, &ChangesWidget::setChange);
    connect(tracker_, &ChangeTracker::compareFailed, this, &ChangesWidget::showError);
    connect(tracker_, &ChangeTracker::modeChanged, this, &ChangesWidget::updateHeader);
    connect(tracker_, &ChangeTracker::busyChanged, this, &ChangesWidget::updateHeader);
    connect(view_, &QTreeView::activated, this, &ChangesWidget::activate);
    updateHeader();
}

void ChangesWidget::setChange(const PlanChange& change) {
    hint_->setWordWrap(true);
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setPalette(secondaryText(hint_->palette()));
    hint_->setMargin(12);
    model_->setChange(change);
    for (int s = 0; s < kChangeSectionCount; ++s)
        view_->setFirstColumnSpanned(s, {}, true);  // section titles read across the columns
    // Long sections start collapsed so that every section title stays in view.
    for (int s = 0; s < kChangeSectionCount; ++s) {
        QModelIndex section = model_->index(s, 0);
        view_->setExpanded(section, model_->rowCount(section) <= kExpandedRows);
    }
    view_->setColumnWidth(ChangesModel::ItemColumn, 260);
    for (int c = ChangesModel::WhatColumn; c < ChangesModel::ColumnCount; ++c)
        view_->resizeColumnToContents(c);
    for (int c : {ChangesModel::BeforeColumn, ChangesModel::AfterColumn})
        view_->setColumnWidth(c, qBound(90, view_->columnWidth(c), 340));
    updateHeader();
}

void ChangesWidget::showError(const QString&) {
    updateHeader();
}

QString ChangesWidget::errorText() const {
    const QString error = tracker_->compareError();
    return error.isEmpty() ? QString() : tr("Cannot compare: %1").arg(error);
}

QString ChangesWidget::titleText() const {
    const PlanChange& change = model_->change();
    if (tracker_->mode() == ChangeTracker::Mode::AgainstFile)
        return change.isValid() ? tr("compared with another file · before: %1 · after: %2")
                                      .arg(change.beforeLabel, change.afterLabel)
                                : tr("Reading %1…").arg(tracker_->referencePath());
    if (!change.isValid()) return tr("since the last change of this file");
    return tr("since the last change · before: %1 · after: %2")
        .arg(change.beforeLabel, change.afterLabel);
}

QString ChangesWidget::summaryText() const {
    const PlanChange& change = model_->change();
    if (change.isValid()) return change.summary;
    return tracker_->isBusy() ? tr("Comparing…") : tr("Nothing to compare yet");
}

void ChangesWidget::updateHeader() {
    const PlanChange& change = model_->change();
    error_->setText(errorText());
    error_->setVisible(!error_->text().isEmpty());
    summary_->setText(summaryText());
    title_->setText(titleText());
    title_->setToolTip(titleText());  // the line may be cut short in a narrow dock
    hint_->setText(change.note.isEmpty() ? tr("Comparing…") : change.note);
    hint_->setVisible(!change.isValid());
    view_->setVisible(change.isValid());
    sinceButton_->setVisible(tracker_->mode() == ChangeTracker::Mode::AgainstFile);
}

bool ChangesWidget::activate(const QModelIndex& index) {
    if (!index.isValid() || index.model() != model_) return false;
    // Positions refer to the plan the change was computed on: after a newer
    // plan arrived (and before its comparison did) they may point elsewhere.
    if (!model_->change().isValid() || model_->change().currentPlan != tracker_->current().plan)
        return false;
    SelectionState state;
    for (int p : index.data(ParamsRole).value<QList<int>>()) state.params.push_back(p);
    int param = index.data(ParamRole).toInt();
    if (state.params.empty() && param >= 0) state.params.push_back(param);
    state.group = index.data(GroupRole).toInt();
    state.batch = index.data(BatchRole).toInt();
    state.transition = index.data(TransitionRole).toInt();
    if (state.isEmpty()) return false;
    selection_->set(state, tracker_->current());
    return true;
}

}  // namespace hsdp
