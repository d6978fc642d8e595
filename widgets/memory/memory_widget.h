// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>
#include <array>
#include <memory>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "memory/memory_chart.h"
#include "painting/distribution_chart.h"
#include "painting/key_ticks.h"
#include "view/studio_view.h"

class QCPBars;
class QCPItemStraightLine;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QLabel;

namespace hsdp {

// The plan's predicted optimizer-step memory on the chosen cluster (exact:
// a run measures the same bytes): per rank the peak as bars stacked by kind
// of buffer, with the device's capacity as a line (named under the chart
// instead when the peaks are too small to share its scale), and the
// selected rank's (else the peak rank's) high-water mark per schedule entry,
// each bar named by its entry ("#3", never a fraction of one). Clicking a
// rank's bar selects that rank everywhere. More ranks than the chart's
// width shows bars for (tooManyForBars): their peaks as a sorted
// distribution, the worst ranks named, a click on it selecting the rank there.
class MemoryWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit MemoryWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    // The per-rank chart's title: what the peak is and leaves out, where, and its highest.
    QString rankTitleText() const;
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    void showPrediction(const PlanResult& plan) override { setResult(plan); }
    QList<ViewShot> screenshots() const override;
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }
    // A report's parts: "ranks" (the stacked bars) or "entries".
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;

    void setResult(const PlanResult& result);
    const MemoryChart& chart() const { return chart_; }
    int shownRank() const { return shownRank_; }  // of the entries plot; -1: none
    QCustomPlot* rankPlot() const { return rankPlot_; }
    QCustomPlot* entryPlot() const { return entryPlot_; }
    QCPBars* kindBars(MemoryKind kind) const { return kindBars_[size_t(kind)]; }
    QCPItemStraightLine* capacityLine() const { return capacity_; }
    // The per-rank chart's distribution form: shown instead of the bars at many ranks.
    const DistributionChart& rankDistribution() const { return *rankDist_; }
    QString message() const;  // why nothing is drawn ("" when a prediction is)
    void selectRank(int rank);
    QImage renderImage(const QSize& size);

private:
    QCustomPlot* makePlot(QCPTextElement** title);
    void fillRankPlot();
    void fillRankBars();
    void showRankDistribution();
    void onRankPlotLaidOut();
    void onRankPlotClicked(const QPoint& pos);
    void showCapacity();
    QString capacityNote(const QString& gap) const;
    void showLegend(bool shown);
    void fillEntryPlot();
    void onSelectionChanged();

    PlanSelection* selection_;
    PlanResult result_;
    MemoryChart chart_;
    int shownRank_ = -1;
    QLabel* message_;
    QCustomPlot* rankPlot_;
    QCustomPlot* entryPlot_;
    QCPTextElement* rankTitle_ = nullptr;
    QCPTextElement* entryTitle_ = nullptr;
    std::array<QCPBars*, kMemoryKinds> kindBars_{};
    QCPBars* entryBars_ = nullptr;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPLayoutGrid* chartRow_ = nullptr;  // the rank chart's axis rect, then its legend
    // The entries chart's keys named by their schedule entry ("#3"): whole
    // entries only, thinned to what the axis' width holds.
    KeyTicks entryTicks_;
    KeyTicks rankTicks_;  // the rank bars' numbers, every k-th as the width holds
    std::unique_ptr<DistributionChart> rankDist_;
};

}  // namespace hsdp
