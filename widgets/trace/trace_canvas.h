// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>

#include "derived/plan/plan_selection.h"
#include "derived/run/node_map.h"
#include "derived/run/run_data.h"
#include "derived/run/step_faults.h"
#include "run/real_size.h"
#include "trace/trace_bars.h"
#include "trace/trace_group_bars.h"
#include "trace/trace_row_layout.h"

namespace hsdp {

// The per-rank timeline: one row per rank, one bar per collective (x =
// time), coloured by phase or op, the selected collective's bars outlined on
// every participant. Wheel / zoomIn / zoomOut zoom time around the cursor,
// dragging and the arrow keys pan, fit() shows the whole run. Painting goes
// through rowBars() (at most one bar per pixel column per row), so a 100,000
// event overview costs what its pixels cost. Hover: the collective's
// details; click: selects it (its seq, participants and params) everywhere.
//
// A run of more than kGroupRanksAbove ranks opens grouped (TraceRowLayout):
// each group of ranks (a mesh dim's index, a node, the selection) is one
// summary row, the density of its ranks' bars (groupBars), until a click on
// it unfolds its ranks' rows; a rank selected elsewhere unfolds its group.
//
// A collective whose result verification found wrong (a reference run's
// hazards: RunIndex::faults) is marked on every participant's bar, however
// far out the zoom: its lower part in traceFaultColour(), at least
// kFaultMarkWidth pixels wide; the legend names the mark and the tooltip
// says what is wrong.
class TraceCanvas : public QWidget {
    Q_OBJECT
public:
    static constexpr int kGutter = 160;  // row labels
    static constexpr int kHeader = 46;   // legend + time axis
    static constexpr int kMaxRowHeight = 40;
    static constexpr int kFaultMarkWidth = 4;
    static constexpr int kFailureMarkWidth = 5;

    explicit TraceCanvas(PlanSelection* selection, QWidget* parent = nullptr);

    // `timeline`: the run's, built already (off the GUI thread); null: built
    // here. The run's index (RunData::index, or built here without a
    // timeline) gives the steps to mark as wrong; a run given with a
    // timeline and no index (a prediction) has none.
    void setRun(const RunData& run, std::shared_ptr<const TraceTimeline> timeline = {});
    // Benchmarks and tests: a trace without a plan (rows = worldSize);
    // `mesh` (of the world's size) serves the MeshDim groupings.
    void setTimeline(std::shared_ptr<const TraceTimeline> timeline,
                     std::shared_ptr<const Mesh> mesh = {});
    const TraceTimeline* timeline() const { return timeline_.get(); }
    void setColouring(TraceColouring colouring);
    TraceColouring colouring() const { return colouring_; }
    int64_t highlightedSeq() const { return seq_; }
    // The collectives marked as wrong, by id (none: empty).
    const StepFaults& faults() const;
    // The time axis's title: "time since run start" for a run; a prediction
    // says what its zero is ("predicted time since step start").
    void setTimeAxisTitle(const QString& title);
    QString timeAxisTitle() const { return timeAxisTitle_; }
    // "64 ranks · 23,863 events": what the legend says right of the colours.
    QString summaryText() const;

    // The time window shown, in microseconds; setWindow clamps to the run.
    double windowStart() const { return t0_; }
    double windowEnd() const { return t1_; }
    void setWindow(double t0, double t1);
    // Two timelines drawn one above the other share one time axis: each
    // canvas's fit and zoom-out cover [beginUs, endUs] (the earlier begin
    // and the later end of the two) as well as its own timeline; an empty
    // range (end <= begin): its own timeline only.
    void setCommonExtent(double beginUs, double endUs);
    // Where this canvas's timeline begins and ends, in microseconds (0 without one).
    double timelineBeginUs() const;
    double timelineEndUs() const;

    // Grouping: a new one starts with every group collapsed (None: one row
    // per rank). The run's default is defaultRankGrouping's.
    void setGrouping(const RankGrouping& grouping);
    const RankGrouping& grouping() const { return grouping_; }
    // The cluster's nodes (the Node grouping); a Node grouping without them falls back.
    void setNodeMap(const NodeMap& nodes);
    const NodeMap& nodeMap() const { return nodes_; }
    const Mesh* mesh() const { return mesh_.get(); }
    RankGroupingContext groupingContext() const;
    const TraceRowLayout& rowLayout() const { return layout_; }
    void setGroupCollapsed(int group, bool collapsed);
    void setAllGroupsCollapsed(bool collapsed);

    TimeAxis axisFor(const QSize& size) const;
    double rowHeight(const QSize& size) const;  // of every line
    // Device y of the top of the line showing timeline row `row` (its own,
    // or its collapsed group's summary).
    double rowTop(int row, const QSize& size) const;
    double lineTop(int line, const QSize& size) const;
    // The layout line under device y, or -1.
    int lineAt(double y, const QSize& size) const;
    // The event under a device point for a canvas of `size`, or -1.
    int eventAt(const QPointF& pos, const QSize& size) const;
    // Where event `index` is painted (its bar's centre) on a canvas of `size`.
    QPointF eventCentre(int index, const QSize& size) const;

    // The height at which a picture about `height` tall holds its lines
    // and nothing under them: each line as tall as `height` would make it,
    // kMaxRowHeight at most and kMinPictureRowHeight (a label's) at least.
    int fittedHeight(int height) const;
    static constexpr int kMinPictureRowHeight = 12;

    // Paints the view for `size`; returns the number of bar rectangles drawn.
    int paintTimeline(QPainter& painter, const QSize& size) const;
    // The same over the window [t0, t1] (µs) whatever the canvas shows: a
    // picture of two timelines draws both on one axis.
    int paintTimeline(QPainter& painter, const QSize& size, double t0, double t1);
    // The window fit() shows for a timeline from `beginUs` to `endUs`.
    static std::pair<double, double> fittedWindow(double beginUs, double endUs);
    // What two canvases' timelines span together: the earlier begin, the later end.
    static std::pair<double, double> jointExtent(const TraceCanvas& a, const TraceCanvas& b);
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
    // A summary row's tooltip: the group, its ranks, how many are busy at `t`.
    QString groupToolTipFor(int group, double t) const;

signals:
    // The grouping or a group's folding changed (the toolbar follows).
    void layoutChanged();

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
    int64_t matchingSeq(int64_t seq) const;
    void zoomAround(double factor, double x);
    void scrollRows(double pixels);
    void bringIntoView(int64_t seq);
    void regroup();
    void relayoutDone();
    void expandSelectedRanks();
    void scrollToLine(int line);
    bool toggleGroupAt(const QPointF& pos);
    QString rowLabel(int row) const;
    void paintRows(QPainter& painter, const QSize& size, int& bars) const;
    void paintSummary(QPainter& painter, int group, double top, double h, const TimeAxis& axis,
                      int& bars) const;
    void paintGroupRules(QPainter& painter, const QSize& size) const;
    void paintLineLabels(QPainter& painter, const QSize& size) const;
    QString lineLabel(int line) const;
    void paintHighlight(QPainter& painter, const QSize& size) const;
    // Where the mark of event `index` of a wrong collective goes on a canvas
    // of `size` (empty where it is not marked or not on screen).
    QRect faultMarkOf(int index, const QSize& size) const;
    void paintFaults(QPainter& painter, const QSize& size) const;
    void paintFailure(QPainter& painter, const QSize& size) const;
    // The window's bounds before fit()'s margin: the timeline's, widened to
    // the common extent.
    std::pair<double, double> extent() const;

public:
    // A failed run: where its failing rank stopped, a red bar across that
    // rank's row just after its last recorded collective (the failed one
    // left no event), the error in its tooltip; empty for a run that did not
    // fail or off screen.
    QRect failureMarkOf(const QSize& size) const;
    // The time axis's labels at `size`: each inside the canvas.
    std::vector<std::pair<QRectF, QString>> axisLabels(const QSize& size) const;
    // Where the mark's "✗ failed here" goes: beside it, inside the canvas.
    QRect failureLabelOf(const QSize& size) const;
    static QString failureLabelText();
    static QString shortGroupTitle(const QString& title, const QFontMetricsF& metrics,
                                   double width);
    // A cancelled run: the x where its trace stops (the last event's end),
    // drawn as a dashed line over every row with "run cancelled here"; none
    // for a run that was not cancelled.
    std::optional<double> cancelMarkX(const QSize& size) const;

private:
    std::vector<std::pair<QRectF, QString>> axisLabels(const QSize& size,
                                                       const QFontMetricsF& metrics) const;
    void paintGutter(QPainter& painter, const QSize& size) const;
    void paintAxis(QPainter& painter, const QSize& size) const;
    void paintLegend(QPainter& painter, const QSize& size) const;

    QPointer<PlanSelection> selection_;
    RunData run_;
    RealScale real_;  // the run's scale to the real shapes (shrunk runs)
    std::shared_ptr<const TraceTimeline> timeline_;
    std::shared_ptr<const StepFaults> faults_;  // of run_ (its index's), or null
    TraceColouring colouring_ = TraceColouring::Phase;
    int64_t seq_ = -1;
    double t0_ = 0, t1_ = 1;
    double commonBeginUs_ = 0, commonEndUs_ = 0;
    double scrollY_ = 0;  // pixels the rows are scrolled up
    QPointF dragStart_;
    double t0AtDrag_ = 0, scrollAtDrag_ = 0;
    bool dragging_ = false;
    mutable std::vector<BarSpan> bars_;                        // reused per row while painting
    mutable std::vector<std::vector<QRect>> rectsByCategory_;  // reused per paint
    mutable std::vector<DensitySpan> density_;
    mutable GroupBarsScratch scratch_;
    std::shared_ptr<const Mesh> mesh_;  // of the world's size, or null
    NodeMap nodes_;
    RankGrouping grouping_;
    QString timeAxisTitle_ = tr("time since run start");
    bool groupingChosen_ = false;  // by the user: kept across runs of one size
    TraceRowLayout layout_;
};

}  // namespace hsdp
