// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>
#include <QWidget>

#include "derived/plan/plan_selection.h"
#include "derived/run/run_data.h"
#include "derived/run/run_index.h"
#include "derived/run/run_steps.h"
#include "derived/run/traffic_stats.h"
#include "view/studio_view.h"

class QCPBars;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace hsdp {

// The run's traffic (TrafficStats, NCCL-tests conventions): algorithm and
// bus bandwidth per op and per mesh dim as bars, the figures behind them in
// a table (collectives, per-rank events, on-wire bytes, size S, summed and
// busy wall time, algbw, busbw; a shrunk run's bytes with their real size),
// and the slowest collectives; clicking one selects it everywhere.
class TrafficWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit TrafficWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showRun(const RunData& run) override { setRun(run); }
    QList<ViewShot> screenshots() const override;
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }

    void setRun(const RunData& run);
    const TrafficStats& stats() const { return index_->traffic; }
    const std::vector<RunStep>& steps() const { return index_->steps; }
    QCustomPlot* plot() const { return plot_; }
    // The chart's title: its unit, whose bandwidth (a shrunk run's) and scale.
    QString axisTitle() const;
    QTableWidget* table() const { return table_; }
    QTableWidget* slowestTable() const { return slowest_; }
    QString noteText() const;  // the conventions the figures follow, as shown
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(QSize size);

private:
    void setValueScale(double low, double top);
    bool logScale_ = false;
    double lastKey_ = 0;  // the last bars' key
    QString lastLabel_;   // and their name under the axis
    bool shrunk_ = false;
    static QString noteText(bool shrunk);
    static QString noRunText();  // the note while there is no run
    void fillPlot();
    void fitKeyRange();
    void setAxisTitle(bool shrunk);
    void fillTable();
    void fillSlowest();

    QPointer<PlanSelection> selection_;
    RunData run_;
    RealScale real_;
    std::shared_ptr<const RunIndex> index_ = indexRun({});  // of run_
    QCustomPlot* plot_;
    QCPTextElement* axisTitle_ = nullptr;
    QCPBars* algBars_;
    QCPBars* busBars_;
    QTableWidget* table_;
    QTableWidget* slowest_;
    QLabel* note_;
};

}  // namespace hsdp
