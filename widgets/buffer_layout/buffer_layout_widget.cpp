// SPDX-License-Identifier: Apache-2.0
#include "buffer_layout/buffer_layout_widget.h"

#include <QPainter>
#include "types/figures.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>

namespace hsdp {

BufferLayoutWidget::BufferLayoutWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      canvas_(new BufferLayoutCanvas(selection, this)),
      collectiveBox_(new QComboBox(this)),
      ranks_(new QComboBox(this)) {
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Collective"), this));
    controls->addWidget(collectiveBox_, 1);
    controls->addWidget(new QLabel(tr("Rank"), this));
    controls->addWidget(ranks_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(canvas_, 1);
    connect(collectiveBox_, &QComboBox::activated, this,
            [this](int i) { showCollective(i, rank_); });
    connect(ranks_, &QComboBox::activated, this,
            [this](int i) { showCollective(current_, ranks_->itemData(i).toInt()); });
    connect(selection_, &PlanSelection::changed, this, &BufferLayoutWidget::onSelectionChanged);
    canvas_->setLayout(std::nullopt, tr("No run yet: Run the plan to see its fused buffers."));
}

void BufferLayoutWidget::setRun(const RunData& data) {
    data_ = data;
    canvas_->setPlan(data.plan);
    index_ = runIndexOf(data);
    current_ = -1;
    fillCollectives();
    onSelectionChanged();
}

void BufferLayoutWidget::fillCollectives() {
    const QSignalBlocker block(collectiveBox_);
    collectiveBox_->clear();
    for (const auto& c : collectives()) {
        const auto& l = c.event->label;
        collectiveBox_->addItem(tr("%1 %2 · group %3 batch %4 · %5 · %6 params")
                                    .arg(QString::fromStdString(collectiveId(c.seq)))
                                    .arg(QString::fromStdString(l.phase))
                                    .arg(l.group)
                                    .arg(l.batch)
                                    .arg(c.isExchange() ? tr("all_to_all_v over the shard group")
                                                        : tr("dim %1").arg(l.meshDim))
                                    .arg(l.params.size()));
    }
}

void BufferLayoutWidget::onSelectionChanged() {
    if (!data_.isValid()) {
        current_ = -1;
        canvas_->setLayout(std::nullopt, tr("No run yet: Run the plan to see its fused buffers."));
        return;
    }
    // The selection holds a group's position, the trace its plan id.
    SelectionState state = selection_->stateFor(data_.plan);
    const auto& groups = data_.plan.plan->groups;
    if (state.group >= 0)
        state.group = size_t(state.group) < groups.size() ? groups[size_t(state.group)].id : -1;
    const int pick = pickCollective(collectives(), state);
    if (pick < 0) {
        current_ = -1;
        canvas_->setLayout(std::nullopt,
                           collectives().empty()
                               ? tr("This run moved no fused buffer.")
                               : tr("Select a gathered batch, a parameter or a collective."));
        return;
    }
    showCollective(pick, defaultRank(collectives()[size_t(pick)]));
}

// The selection's first rank when it is a member, else the rank shown so far,
// else the first member (every member of a gather belongs to the owner's group).
int BufferLayoutWidget::defaultRank(const BufferCollective& c) const {
    const auto& members = c.event->groupRanks;
    auto isMember = [&](int r) {
        return std::find(members.begin(), members.end(), r) != members.end();
    };
    for (int r : selection_->stateFor(data_.plan).ranks)
        if (isMember(r)) return r;
    if (isMember(rank_)) return rank_;
    return members.empty() ? -1 : members.front();
}

int BufferLayoutWidget::groupPosition(int id) const {
    const auto& groups = data_.plan.plan->groups;
    for (size_t i = 0; i < groups.size(); ++i)
        if (groups[i].id == id) return int(i);
    return -1;
}

void BufferLayoutWidget::showCollective(int index, int rank) {
    if (index < 0 || size_t(index) >= collectives().size()) return;
    current_ = index;
    BufferLayout layout = bufferLayout(data_, collectives()[size_t(index)], rank,
                                       selection_->focusParamFor(data_.plan));
    rank_ = layout.rank;
    {
        const QSignalBlocker block(collectiveBox_);
        collectiveBox_->setCurrentIndex(index);
    }
    fillRanks(rank_);
    canvas_->setGroupPosition(groupPosition(layout.group));
    canvas_->setLayout(std::move(layout), QString());
}

void BufferLayoutWidget::fillRanks(int rank) {
    const QSignalBlocker block(ranks_);
    ranks_->clear();
    for (int r : collectives()[size_t(current_)].event->groupRanks) {
        ranks_->addItem(tr("rank %1").arg(r), r);
        if (r == rank) ranks_->setCurrentIndex(ranks_->count() - 1);
    }
}

QList<ViewShot> BufferLayoutWidget::screenshots() const {
    if (!data_.isValid()) return {};
    return {ViewShot{{}, QSize(1400, 900), {}}};
}

QSize BufferLayoutWidget::fittedPictureSize(const QSize& size, const QString&) {
    return canvas_->fittedSize(size);
}

void BufferLayoutWidget::paintPicture(QPaintDevice& target, const QSize& size, const QString&) {
    paintOnWhite(target, size, [&](QPainter& painter) { canvas_->paint(painter, size); });
}

}  // namespace hsdp
