// SPDX-License-Identifier: Apache-2.0
#include "tensor_layout/tensor_layout_widget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdint>

#include <QPainter>
#include "tensor_layout/tensor_block_text.h"

namespace hsdp {

TensorLayoutWidget::TensorLayoutWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent),
      selection_(selection),
      canvas_(new TensorLayoutCanvas(selection, this)),
      rows_(new QComboBox(this)),
      columns_(new QComboBox(this)),
      sliceControls_(new QHBoxLayout) {
    // As wide as the longest dim's text ("dim 0 (18944)"), which comes
    // with a param, after the boxes were first shown empty.
    rows_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    columns_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Rows"), this));
    controls->addWidget(rows_);
    controls->addWidget(new QLabel(tr("Columns"), this));
    controls->addWidget(columns_);
    controls->addLayout(sliceControls_);
    controls->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    // The canvas keeps the height its blocks and legend need at the dock's
    // width: a short dock scrolls it rather than shrinking the blocks.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(canvas_);
    layout->addWidget(scroll, 1);
    connect(rows_, &QComboBox::activated, this, &TensorLayoutWidget::applyControls);
    connect(columns_, &QComboBox::activated, this, &TensorLayoutWidget::applyControls);
    connect(selection_, &PlanSelection::changed, this, &TensorLayoutWidget::onSelectionChanged);
}

// The picture is redrawn from the new plan even when the focus param keeps
// its position (or there is none): the old blocks are of the old plan.
void TensorLayoutWidget::setResult(const PlanResult& result) {
    result_ = result;
    showParam(selection_->focusParamFor(result_));
    updateWrongRows();
}

void TensorLayoutWidget::setRun(const RunData& run) {
    run_ = run;
    updateWrongRows();
}

void TensorLayoutWidget::onSelectionChanged() {
    const int param = selection_->focusParamFor(result_);
    if (param != param_) showParam(param);  // a rank pick keeps the picture
    updateWrongRows();                      // which rank's rows follows the pick
}

void TensorLayoutWidget::updateWrongRows() {
    const bool ofThisPlan = run_.isValid() && result_.isValid() && run_.plan.plan == result_.plan;
    std::vector<int> ranks = selection_->stateFor(result_).ranks;
    std::sort(ranks.begin(), ranks.end());
    canvas_->setWrongRows(ofThisPlan && param_ >= 0 ? wrongRowsOf(*run_.run, param_, ranks)
                                                    : WrongRowOverlay{});
}

void TensorLayoutWidget::showParam(int param) {
    param_ = param;
    axes_ = param < 0
                ? TensorAxes{}
                : TensorAxes::defaultFor(result_.scenario->params[static_cast<size_t>(param)]);
    recompute();
    fillControls();
}

void TensorLayoutWidget::setAxes(const TensorAxes& axes) {
    axes_ = axes;
    recompute();
    fillControls();
}

void TensorLayoutWidget::recompute() {
    TensorBlocks blocks;
    if (param_ >= 0)
        blocks = computeTensorBlocks(*result_.scenario, param_, axes_,
                                     layoutHazardCodes(*result_.plan, *result_.index, param_));
    axes_ = blocks.axes;  // as validated
    canvas_->setBlocks(result_, std::move(blocks));
}

void TensorLayoutWidget::fillControls() {
    const ParamSpec* spec =
        param_ < 0 ? nullptr : &result_.scenario->params[static_cast<size_t>(param_)];
    fillDimChoices(spec);
    fillSliceBoxes(spec);
}

// Every dim for the rows and the columns of a param of two or more dims.
void TensorLayoutWidget::fillDimChoices(const ParamSpec* spec) {
    QSignalBlocker blockRows(rows_), blockColumns(columns_);
    rows_->clear();
    columns_->clear();
    const int ndim = spec ? spec->ndim() : 0;
    rows_->setEnabled(ndim >= 2);  // two dims: a transpose; more: a choice
    columns_->setEnabled(ndim >= 2);
    if (ndim < 2) rows_->addItem(tr("—"), -1);
    for (int d = 0; d < ndim; ++d) {
        if (ndim >= 2) rows_->addItem(dimText(d, spec->shape), d);
        columns_->addItem(dimText(d, spec->shape), d);
    }
    rows_->setCurrentIndex(rows_->findData(axes_.rowDim));
    columns_->setCurrentIndex(columns_->findData(axes_.colDim));
}

// A spin box per dim not shown: the index the picture slices it at.
void TensorLayoutWidget::fillSliceBoxes(const ParamSpec* spec) {
    while (QLayoutItem* item = sliceControls_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int d = 0; spec && d < spec->ndim(); ++d) {
        if (d == axes_.rowDim || d == axes_.colDim) continue;
        const int64_t extent = spec->shape[static_cast<size_t>(d)];
        auto* box = new QSpinBox(this);
        box->setPrefix(tr("dim %1 at ").arg(d));
        box->setRange(0, static_cast<int>(std::clamp<int64_t>(extent - 1, 0, INT32_MAX)));
        box->setValue(static_cast<int>(axes_.slice[static_cast<size_t>(d)]));
        box->setToolTip(tr("The index of dim %1 the picture slices at").arg(d));
        connect(box, &QSpinBox::valueChanged, this, [this, d](int index) { applySlice(d, index); });
        sliceControls_->addWidget(box);
    }
}

void TensorLayoutWidget::applyControls() {
    TensorAxes axes = axes_;
    int row = rows_->currentData().toInt(), column = columns_->currentData().toInt();
    if (row == column) {  // one dim cannot be both: the two swap
        if (row != axes_.rowDim)
            column = axes_.rowDim;  // the rows took the columns' dim
        else
            row = axes_.colDim;  // the columns took the rows' dim
    }
    axes.rowDim = row;
    axes.colDim = column;
    setAxes(axes);
}

void TensorLayoutWidget::applySlice(int dim, int index) {
    axes_.slice.at(static_cast<size_t>(dim)) = index;
    recompute();  // the spin boxes stay: the user may be typing in one
}

void TensorLayoutWidget::paintPicture(QPaintDevice& target, const QSize& size, const QString&) {
    paintOnWhite(target, size, [&](QPainter& painter) { canvas_->paint(painter, size); });
}

}  // namespace hsdp
