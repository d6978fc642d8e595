// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>
#include <vector>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "tensor_layout/tensor_layout_canvas.h"
#include "view/studio_view.h"

class QComboBox;
class QHBoxLayout;

namespace hsdp {

// The tensor layout dock: the selection's focus param as blocks of global
// indices labelled with the ranks holding them (TensorLayoutCanvas), with
// controls for which tensor dims run down the rows and across the columns
// and, for every other dim, the index the picture slices at. The blocks
// are computed on the GUI thread: they cost shard coordinates x ranges
// (8,192 coordinates lay out in milliseconds), never elements.
class TensorLayoutWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit TensorLayoutWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    void showRun(const RunData& run) override { setRun(run); }
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;
    // As wide, as tall as the blocks and the whole legend need (TensorLayoutCanvas::fittedSize).
    QSize fittedPictureSize(const QSize& size, const QString&) override {
        return canvas_->fittedSize(size);
    }
    // The canvas at its width, as tall as its title, blocks and legend need.
    QSize shownPictureSize() override { return canvas_->fittedSize(canvas_->size()); }

    void setResult(const PlanResult& result);
    // The last run: its wrong rows for the focus param (on the picked rank,
    // else the first rank with any) are drawn while it is a run of the plan
    // on screen.
    void setRun(const RunData& run);
    // Shows `axes` of the focus param (tests and the controls use this).
    void setAxes(const TensorAxes& axes);
    const TensorBlocks& blocks() const { return canvas_->blocks(); }
    TensorLayoutCanvas* canvas() const { return canvas_; }
    QImage renderImage(const QSize& size) const { return canvas_->renderImage(size); }

private:
    void onSelectionChanged();
    void showParam(int param);
    void fillControls();
    void fillDimChoices(const ParamSpec* spec);
    void fillSliceBoxes(const ParamSpec* spec);
    void applyControls();
    void applySlice(int dim, int index);
    void recompute();
    void updateWrongRows();

    PlanSelection* selection_;
    PlanResult result_;
    RunData run_;
    int param_ = -1;
    TensorAxes axes_;
    TensorLayoutCanvas* canvas_;
    QComboBox* rows_;
    QComboBox* columns_;
    QHBoxLayout* sliceControls_;
};

}  // namespace hsdp
