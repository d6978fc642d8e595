// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QShowEvent>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <array>
#include <numeric>

#include "painting/secondary_text.h"

namespace hsdp {

namespace {

constexpr int kExpandedRows = 40;

}  // namespace

PlanDiffWidget::PlanDiffWidget(PlanDiffTracker* tracker, PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      tracker_(tracker),
      selection_(selection),
      model_(new PlanDiffModel(this)),
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
    // Both can be longer than the screen is wide (the prediction's change with
    // its trust text, a long path): a label that does not wrap makes its
    // length the window's minimum width, and the window grows past the screen.
    summary_->setWordWrap(true);
    title_->setWordWrap(true);
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

    // The summary across the whole width (beside the buttons it wrapped to
    // 3–5 lines), then one line of what is compared and the buttons: the
    // dock is often short.
    title_->setPalette(secondaryText(title_->palette()));
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* header = new QHBoxLayout;
    header->setSpacing(12);
    header->addWidget(title_, 1);
    header->addWidget(compareButton_);
    header->addWidget(sinceButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(summary_);
    layout->addLayout(header);
    layout->addWidget(error_);
    layout->addWidget(view_, 1);
    layout->addWidget(hint_, 1);

    connect(compareButton_, &QToolButton::clicked, this, &PlanDiffWidget::compareRequested);
    connect(sinceButton_, &QToolButton::clicked, tracker_,
            &PlanDiffTracker::compareSinceLastChange);
    connect(tracker_, &PlanDiffTracker::diffReady, this, &PlanDiffWidget::setDiff);
    connect(tracker_, &PlanDiffTracker::compareFailed, this, &PlanDiffWidget::showError);
    connect(tracker_, &PlanDiffTracker::modeChanged, this, &PlanDiffWidget::updateHeader);
    connect(tracker_, &PlanDiffTracker::busyChanged, this, &PlanDiffWidget::updateHeader);
    connect(view_, &QTreeView::activated, this, &PlanDiffWidget::activate);
    updateHeader();
}

void PlanDiffWidget::setDiff(const PlanDiffTable& change) {
    hint_->setWordWrap(true);
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setPalette(secondaryText(hint_->palette()));
    hint_->setMargin(12);
    model_->setDiff(change);
    for (int s = 0; s < kChangeSectionCount; ++s)
        view_->setFirstColumnSpanned(s, {}, true);  // section titles read across the columns
    // Long sections start collapsed so that every section title stays in view.
    for (int s = 0; s < kChangeSectionCount; ++s) {
        QModelIndex section = model_->index(s, 0);
        view_->setExpanded(section, model_->rowCount(section) <= kExpandedRows);
    }
    updateHeader();  // shows the view
    fitColumns();
}

// Every column in view without scrolling sideways (the After column was
// past the right edge at 1440 px): each as wide as its contents, then,
// while they are wider than the view, the What column (text, elided with
// its tooltip) gives up room first, and Before and After down to 90 px.
void PlanDiffWidget::fitColumns() {
    // A hidden view (a tab behind another) has no width to fit: fitted then,
    // every column was cut to its least beside an empty right side.
    if (!model_->change().isValid() || !view_->isVisible()) return;
    std::array<int, PlanDiffModel::ColumnCount> widths{};
    widths[PlanDiffModel::ItemColumn] = 260;
    for (int c = PlanDiffModel::WhatColumn; c < PlanDiffModel::ColumnCount; ++c) {
        view_->resizeColumnToContents(c);
        widths[size_t(c)] = std::max(60, view_->columnWidth(c));
    }
    for (int c : {PlanDiffModel::BeforeColumn, PlanDiffModel::AfterColumn})
        widths[size_t(c)] = qBound(90, widths[size_t(c)], 340);
    int over = std::accumulate(widths.begin(), widths.end(), 0) - view_->viewport()->width();
    const auto give = [&over](int& width, int least) {
        const int taken = std::clamp(over, 0, std::max(0, width - least));
        width -= taken;
        over -= taken;
    };
    give(widths[PlanDiffModel::WhatColumn], 160);
    give(widths[PlanDiffModel::ItemColumn], 160);
    give(widths[PlanDiffModel::BeforeColumn], 90);
    give(widths[PlanDiffModel::AfterColumn], 90);
    for (int c = 0; c < PlanDiffModel::ColumnCount; ++c)
        view_->setColumnWidth(c, widths[size_t(c)]);
}

void PlanDiffWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitColumns();
}

void PlanDiffWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    fitColumns();
}

void PlanDiffWidget::showError(const QString&) {
    updateHeader();
}

QString PlanDiffWidget::errorText() const {
    const QString error = tracker_->compareError();
    return error.isEmpty() ? QString() : tr("Cannot compare: %1").arg(error);
}

QString PlanDiffWidget::titleText() const {
    const PlanDiffTable& change = model_->change();
    if (tracker_->mode() == PlanDiffTracker::Mode::AgainstFile)
        return change.isValid() ? tr("compared with another file · before: %1 · after: %2")
                                      .arg(change.beforeLabel, change.afterLabel)
                                : tr("Reading %1…").arg(tracker_->referencePath());
    if (!change.isValid()) return tr("since the last change of this file");
    return tr("since the last change · before: %1 · after: %2")
        .arg(change.beforeLabel, change.afterLabel);
}

QString PlanDiffWidget::summaryText() const {
    const PlanDiffTable& change = model_->change();
    if (change.isValid()) return change.summary;
    return tracker_->isBusy() ? tr("Comparing…") : tr("Nothing to compare yet");
}

void PlanDiffWidget::updateHeader() {
    const PlanDiffTable& change = model_->change();
    error_->setText(errorText());
    error_->setVisible(!error_->text().isEmpty());
    summary_->setText(summaryText());
    title_->setText(titleText());
    title_->setToolTip(titleText());  // the line may be cut short in a narrow dock
    hint_->setText(change.note.isEmpty() ? tr("Comparing…") : change.note);
    hint_->setVisible(!change.isValid());
    view_->setVisible(change.isValid());
    sinceButton_->setVisible(tracker_->mode() == PlanDiffTracker::Mode::AgainstFile);
}

bool PlanDiffWidget::activate(const QModelIndex& index) {
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
