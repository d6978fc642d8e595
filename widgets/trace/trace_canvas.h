// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>

#include "run/real_size.h"
#include "runs/run_data.h"
#include "shared/plan_selection.h"
#include "trace/trace_bars.h"

namespace hsdp {

// The per-rank timeline: one row per rank, one bar per collective (x =
// time), coloured by phase or op, the selected collective's bars outlined on
// every participant. Wheel / zoomIn / zoomOut zoom time around the cursor,
// dragging and the arrow keys pan, fit() shows the whole run. Painting goes
// through rowBars() (at most one bar per pixel column per row), so a 100,000
// event overview costs what its pixels cost. Hover: the collective's
// details; click: selects it (its seq, participants and params) everywhere.
class TraceCanvas : public QWidget {
    Q_OBJECT
public:
    static constexpr int kGutter = 160;  // row labels
    static constexpr int kHeader = 46;   // legend + time axis
    static constexpr int kMaxRowHeight = 40;

    explicit TraceCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    // `timeline`: the run's, built already (off the GUI thread); null: built here.
    void setRun(const RunData& run, std::shared_ptr<const TraceTimeline> timeline = {});
    // Benchmarks and tests: a trace without a plan (rows = worldSize).
    void setTimeline(std::shared_ptr<const TraceTimeline> timeline);
    const TraceTimeline* timeline() const { return timeline_.get(); }
    void setColouring(TraceColouring colouring);
    TraceColouring colouring() const { return colouring_; }
    int64_t highlightedSeq() const { return seq_; }

    // The time window shown, in microseconds; setWindow clamps to the run.
    double windowStart() const { return t0_; }
    double windowEnd() const { return t1_; }
    void setWindow(double t0, double t1);

    TimeAxis axisFor(const QSize& size) const;
    double rowHeight(const QSize& size) const;
    double rowTop(int row, const QSize& size) const;  // device y of the row's top
    // The event under a device point for a canvas of `size`, or -1.
    int eventAt(const QPointF& pos, const QSize& size) const;
    // Where event `index` is painted (its bar's centre) on a canvas of `size`.
    QPointF eventCentre(int index, const QSize& size) const;

    // Paints the view for `size`; returns the number of bar rectangles drawn.
    int paintTimeline(QPainter& painter, const QSize& size) const;
    QImage renderImage(const QSize& size) const;
    QSize sizeHint() const override { return {900, 420}; }

public slots:
    void zoomIn();
    void zoomOut();
    void fit();
    void panBy(double fraction);  // of the window width; negative: earlier
    // The tooltip of trace event `index` (rich text): op, collective id, rank,
    // bytes sent (of the shrunk run, with the real size, when shrunk), time.
    QString toolTipFor(int index) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    void onSelectionChanged();
    void zoomAround(double factor, double x);
    void scrollRows(double pixels);
    void bringIntoView(int64_t seq);
    QString rowLabel(int row) const;
    void paintRows(QPainter& painter, const QSize& size, int& bars) const;
    void paintHighlight(QPainter& painter, const QSize& size) const;
    void paintGutter(QPainter& painter, const QSize& size) const;
    void paintAxis(QPainter& painter, const QSize& size) const;
    void paintLegend(QPainter& painter, const QSize& size) const;

    QPointer<PlanSelection> selection_;
    RunData run_;
    RealScale real_;  // the run's scale to the real shapes (shrunk runs)
    std::shared_ptr<const TraceTimeline> timeline_;
    TraceColouring colouring_ = TraceColouring::Phase;
    int64_t seq_ = -1;
    double t0_ = 0, t1_ = 1;
    double scrollY_ = 0;  // pixels the rows are scrolled up
    QPointF dragStart_;
    double t0AtDrag_ = 0, scrollAtDrag_ = 0;
    bool dragging_ = false;
    mutable std::vector<BarSpan> bars_;  // reused per row while painting
};

}  // namespace hsdp
