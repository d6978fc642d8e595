// SPDX-License-Identifier: Apache-2.0
#include "verification/verification_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "derived/run/run_status_text.h"
#include "painting/secondary_text.h"

namespace hsdp {

namespace {

// Failure rows past this many stay collapsed: expanding is per row.
constexpr int kExpandedFailures = 200;

}  // namespace

VerificationWidget::VerificationWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      model_(new VerificationModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      summary_(new QLabel(this)),
      note_(new QLabel(this)),
      error_(new QLabel(this)),
      filter_(new QLineEdit(this)),
      hint_(new QLabel(this)),
      view_(new QTreeView(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setFilterRole(FilterRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true);  // a matching row keeps its section
    proxy_->setAutoAcceptChildRows(true);        // and a matching param its mismatches
    view_->setModel(proxy_);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->header()->setStretchLastSection(true);
    QFont bold = summary_->font();
    bold.setBold(true);
    summary_->setFont(bold);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    summary_->setWordWrap(true);  // a narrow dock takes it on two lines, never cut
    note_->setPalette(secondaryText(note_->palette()));
    error_->setStyleSheet(QStringLiteral("color: #c01c28;"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_->setPlaceholderText(tr("Filter: name, mismatch, error, not reached…"));
    filter_->setClearButtonEnabled(true);
    filter_->setMinimumWidth(260);
    filter_->setMaximumWidth(320);
    hint_->setWordWrap(true);
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setPalette(secondaryText(hint_->palette()));
    hint_->setMargin(12);
    hint_->setText(
        tr("No run yet. Run ▸ Run (Ctrl+R) executes the plan for real, one thread "
           "per rank over Gloo, and verifies every byte; Run ▸ Run reference "
           "(Ctrl+Shift+R) runs the reference algorithms to show where they go "
           "wrong."));

    auto* header = new QHBoxLayout;
    header->setSpacing(12);
    header->addWidget(summary_, 1);
    header->addWidget(note_);
    header->addWidget(filter_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(error_);
    layout->addWidget(view_, 1);
    layout->addWidget(hint_, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(filter_, &QLineEdit::textChanged, this, [this] {
        view_->expandToDepth(0);
        expandFailures();
    });
    connect(view_, &QTreeView::activated, this,
            [this](const QModelIndex& index) { activate(proxy_->mapToSource(index)); });
    updateHeader();
}

void VerificationWidget::setRun(const RunData& run) {
    model_->setRun(run);
    for (int s = 0; s < VerificationModel::SectionCount; ++s)
        view_->setFirstColumnSpanned(s, {}, true);  // section titles read across the columns
    view_->expandToDepth(0);
    expandFailures();
    // Widths from the font, not from the rows: sizing to contents walks
    // every row of a 700-param run on the GUI thread.
    const QFontMetrics metrics(view_->font());
    const int verdictWidth = metrics.horizontalAdvance(QStringLiteral("not-gathered")) + 16;
    view_->setColumnWidth(VerificationModel::NameColumn,
                          metrics.horizontalAdvance(QLatin1Char('m')) * 28);
    for (int c = VerificationModel::VerdictColumn; c < VerificationModel::DetailColumn; ++c)
        view_->setColumnWidth(c, verdictWidth);
    view_->setColumnWidth(VerificationModel::PathColumn,
                          metrics.horizontalAdvance(QStringLiteral("lowered+fallback")) + 16);
    updateHeader();
}

void VerificationWidget::setCurrentPlan(const PlanResult& plan) {
    currentPlan_ = plan.plan;
    updateHeader();
}

void VerificationWidget::expandFailures() {
    int expanded = 0;
    for (int s : {VerificationModel::ParamsSection, VerificationModel::TransitionsSection}) {
        QModelIndex section =
            proxy_->mapFromSource(model_->sectionIndex(static_cast<VerificationModel::Section>(s)));
        for (int r = 0; r < proxy_->rowCount(section) && expanded < kExpandedFailures; ++r) {
            QModelIndex row = proxy_->index(r, 0, section);
            if (!row.data(VerificationModel::FailedRole).toBool() || !proxy_->hasChildren(row))
                continue;
            view_->setExpanded(row, true);
            ++expanded;
        }
    }
}

bool VerificationWidget::runIsOfCurrentPlan() const {
    return model_->run().isValid() && model_->run().plan.plan == currentPlan_;
}

QString VerificationWidget::summaryText() const {
    const RunData& run = model_->run();
    return run.isValid() ? runSummaryLine(*run.run) : tr("No run yet");
}

QString VerificationWidget::errorText() const {
    const RunData& run = model_->run();
    return run.isValid() ? runErrorText(*run.run) : QString();
}

void VerificationWidget::updateHeader() {
    const bool hasRun = model_->run().isValid();
    summary_->setText(summaryText());
    summary_->setToolTip(summaryText());  // the line may be cut short in a narrow dock
    const QString error = errorText();
    error_->setText(error);
    error_->setVisible(!error.isEmpty());
    note_->setText(tr("(a run of an earlier plan)"));
    note_->setVisible(hasRun && currentPlan_ && !runIsOfCurrentPlan());
    filter_->setVisible(hasRun);
    view_->setVisible(hasRun);
    hint_->setVisible(!hasRun);
}

bool VerificationWidget::activate(const QModelIndex& index) {
    if (!index.isValid() || index.model() != model_ || !runIsOfCurrentPlan()) return false;
    SelectionState state;
    const int param = index.data(ParamRole).toInt();
    if (param >= 0) state.params.push_back(param);
    state.group = index.data(GroupRole).toInt();
    state.batch = index.data(BatchRole).toInt();
    state.transition = index.data(TransitionRole).toInt();
    const int rank = index.data(VerificationModel::RankRole).toInt();
    if (rank >= 0) state.ranks.push_back(rank);
    if (state.isEmpty()) return false;
    selection_->set(state, model_->run().plan);
    return true;
}

QList<ViewShot> VerificationWidget::screenshots() const {
    if (!model_->run().isValid()) return {};
    return {ViewShot{{}, QSize(1400, 700), {}}};
}

}  // namespace hsdp
