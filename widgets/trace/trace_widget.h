// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "trace/trace_canvas.h"
#include "view/studio_view.h"

class QComboBox;
class QLabel;
class QToolButton;

namespace hsdp {

// The run's trace: a small toolbar (colour by phase or op, group ranks by,
// unfold / fold all groups, zoom, fit) over the TraceCanvas timeline.
// Everything it shows comes from RunData's trace.
class TraceWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit TraceWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showRun(const RunData& run) override { setRun(run); }
    // The chosen cluster's nodes: the "node" grouping of a run of this plan's world.
    void showPrediction(const PlanResult& plan) override;
    QList<ViewShot> screenshots() const override;
    // Its parts: "" as it stands, "group-unfolded" (its first group unfolded).
    QImage picture(const QSize& size, const QString& part) override;

    void setRun(const RunData& run);
    TraceCanvas* canvas() const { return canvas_; }
    void setColouring(TraceColouring colouring);
    // The "Group by" choices of this run (None first), and the one shown.
    const std::vector<RankGrouping>& groupings() const { return groupings_; }
    QComboBox* groupingBox() const { return grouping_; }
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(QSize size);

private:
    void fillGroupings();

    TraceCanvas* canvas_;
    QComboBox* colouring_;
    QComboBox* grouping_;
    QToolButton* expandAll_;
    QToolButton* collapseAll_;
    QLabel* stepNote_;  // the step's share of the run's wall time
    std::vector<RankGrouping> groupings_;
    PlanResult predicted_;  // the last plan shown with its prediction
};

}  // namespace hsdp
