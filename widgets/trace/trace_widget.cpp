// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_widget.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include "trace/trace_zoom_bar.h"
#include "types/figures.h"
#include "types/mesh.h"
#include "view/offscreen_grab.h"

namespace hsdp {

TraceWidget::TraceWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      canvas_(new TraceCanvas(selection, this)),
      colouring_(new QComboBox(this)),
      grouping_(new QComboBox(this)),
      expandAll_(flatToolButton(tr("Unfold all"), tr("Show every rank's own row"), this)),
      collapseAll_(flatToolButton(tr("Fold all"), tr("One summary row per group"), this)),
      stepNote_(new QLabel(this)) {
    colouring_->addItem(tr("phase"));
    colouring_->addItem(tr("op"));
    grouping_->setToolTip(
        tr("Group the ranks' rows: a folded group is one row, shaded by how many of its ranks "
           "are busy; click it to unfold"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 0);
    bar->addWidget(new QLabel(tr("Colour by"), this));
    bar->addWidget(colouring_);
    bar->addSpacing(10);
    bar->addWidget(new QLabel(tr("Group ranks by"), this));
    bar->addWidget(grouping_);
    bar->addWidget(expandAll_);
    bar->addWidget(collapseAll_);
    bar->addStretch(1);
    auto* hint =
        new QLabel(tr("wheel: zoom · drag / arrows: pan · click: select a collective"), this);
    hint->setStyleSheet(QStringLiteral("color: #777;"));
    bar->addWidget(hint);
    bar->addWidget(new TraceZoomBar({canvas_}, this));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    stepNote_->setObjectName(QStringLiteral("stepNote"));
    stepNote_->setContentsMargins(6, 0, 6, 0);
    stepNote_->setWordWrap(true);
    stepNote_->hide();
    layout->addWidget(stepNote_);
    layout->addWidget(canvas_, 1);
    connect(colouring_, &QComboBox::currentIndexChanged, this, [this](int index) {
        canvas_->setColouring(index == 1 ? TraceColouring::Op : TraceColouring::Phase);
    });
    connect(grouping_, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && static_cast<size_t>(index) < groupings_.size())
            canvas_->setGrouping(groupings_[static_cast<size_t>(index)]);
    });
    connect(expandAll_, &QToolButton::clicked, this,
            [this] { canvas_->setAllGroupsCollapsed(false); });
    connect(collapseAll_, &QToolButton::clicked, this,
            [this] { canvas_->setAllGroupsCollapsed(true); });
    connect(canvas_, &TraceCanvas::layoutChanged, this, &TraceWidget::fillGroupings);
    fillGroupings();
}

void TraceWidget::setRun(const RunData& run) {
    canvas_->setRun(run);
    // The trace is the optimizer step; the run's wall time in the status
    // bar also holds the single-device truth and the checks: said above an
    // axis that starts late and ends early.
    if (run.isValid() && run.run->stepSeconds > 0)
        stepNote_->setText(tr("The optimizer step: %1 wall of the whole run's %2 (the rest is the "
                              "single-device truth and the checks); time since the run started.")
                               .arg(QString::fromStdString(durationText(run.run->stepSeconds)),
                                    QString::fromStdString(durationText(run.run->seconds))));
    else
        stepNote_->clear();
    stepNote_->setVisible(!stepNote_->text().isEmpty());
    const PlanResult predicted = predicted_;  // made before the run came
    if (canvas_->nodeMap().empty()) showPrediction(predicted);
}

// The prediction may come before the run or after it: kept for either.
void TraceWidget::showPrediction(const PlanResult& plan) {
    predicted_ = plan;
    const TraceTimeline* timeline = canvas_->timeline();
    if (!timeline || !plan.plan || plan.plan->worldSize != timeline->rowCount()) return;
    NodeMap nodes = nodeMapOf(plan);
    if (nodes.nodeOfRank == canvas_->nodeMap().nodeOfRank) return;
    canvas_->setNodeMap(nodes);
    fillGroupings();  // "node" comes or goes
}

// The groupings this run can be shown by: each mesh dim's index, the
// cluster's nodes (when one is chosen), the selection, blocks of ranks.
void TraceWidget::fillGroupings() {
    const int ranks = canvas_->timeline() ? canvas_->timeline()->rowCount() : 0;
    const RankGroupingContext context = canvas_->groupingContext();
    std::vector<std::pair<RankGrouping, QString>> choices{
        {RankGrouping{}, tr("nothing (a row per rank)")}};
    if (const Mesh* mesh = canvas_->mesh())
        for (int d = 0; d < mesh->ndim(); ++d)
            choices.push_back(
                {{RankGroupingKind::MeshDim, d, 0},
                 tr("%1 index")
                     .arg(QString::fromStdString(mesh->dimNames[static_cast<size_t>(d)]))});
    if (!canvas_->nodeMap().empty())
        choices.push_back(
            {{RankGroupingKind::Node, 0, 0}, tr("node (%1)").arg(canvas_->nodeMap().clusterName)});
    choices.push_back({{RankGroupingKind::Selection, 0, 0}, tr("the selection")});
    const RankGrouping blocks = defaultRankGrouping(std::max(ranks, kGroupRanksAbove + 1), nullptr);
    choices.push_back({blocks, tr("blocks of %1 ranks").arg(blocks.blockSize)});
    if (canvas_->grouping().kind == RankGroupingKind::Blocks && canvas_->grouping() != blocks)
        choices.push_back(
            {canvas_->grouping(), tr("blocks of %1 ranks").arg(canvas_->grouping().blockSize)});
    groupings_.clear();
    const QSignalBlocker blocker(grouping_);
    grouping_->clear();
    for (const auto& [grouping, text] : choices) {
        if (!canGroup(grouping, context) && grouping.kind != RankGroupingKind::None) continue;
        groupings_.push_back(grouping);
        grouping_->addItem(text);
        if (grouping == canvas_->grouping()) grouping_->setCurrentIndex(grouping_->count() - 1);
    }
    grouping_->setEnabled(ranks > 0);
    expandAll_->setEnabled(canvas_->rowLayout().isGrouped());
    collapseAll_->setEnabled(canvas_->rowLayout().isGrouped());
}

void TraceWidget::setColouring(TraceColouring colouring) {
    colouring_->setCurrentIndex(colouring == TraceColouring::Op ? 1 : 0);
}

QImage TraceWidget::renderImage(QSize size) {
    return grabOffscreen(*this, size);
}

// A grouped run adds its first group unfolded ("group-unfolded").
QList<ViewShot> TraceWidget::screenshots() const {
    if (!canvas_->timeline()) return {};
    QList<ViewShot> shots{ViewShot{{}, QSize(1600, 900), {}}};
    if (canvas_->rowLayout().isGrouped())
        shots << ViewShot{QStringLiteral("trace-group-unfolded.png"), QSize(1600, 900),
                          QStringLiteral("group-unfolded")};
    return shots;
}

QImage TraceWidget::picture(const QSize& size, const QString& part) {
    if (part != QLatin1String("group-unfolded") || !canvas_->rowLayout().isGrouped())
        return renderImage(size);
    std::vector<bool> folded;
    for (const auto& group : canvas_->rowLayout().groups()) folded.push_back(group.collapsed);
    canvas_->setGroupCollapsed(0, false);
    QImage image = renderImage(size);
    for (size_t g = 0; g < folded.size(); ++g) canvas_->setGroupCollapsed(int(g), folded[g]);
    return image;
}

}  // namespace hsdp
