// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>
#include <map>
#include <memory>

#include "derived/plan/plan_result.h"
#include "derived/plan/plan_selection.h"
#include "owner_balance/balance_data.h"
#include "painting/distribution_chart.h"
#include "painting/key_ticks.h"
#include "view/studio_view.h"

class QCPBars;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QScrollArea;
class QCPTextElement;

namespace hsdp {

// Owner load balance of the plan, as the plan states it (never recomputed):
// numel per owner coordinate of one batch (Batch::loads) against its mean
// and the lower bound max(largest param, total / coordinates), the
// imbalance in the title; per rank over all batches what it holds, gathers
// and computes (Plan::ranks' held, gathered and computed numel); and for a
// gathered batch the Newton–Schulz numel at every shard coordinate, one block
// per replicate coordinate, idle coordinates at zero (computeLoads). The batch
// follows the selection (its group/batch, else its param's), else the worst
// batch. Clicking a coordinate bar selects that coordinate's ranks, a rank
// bar that rank. Tick labels thin out or turn upright so they never overlap.
// A chart with more bars than its width shows (tooManyForBars: 16,384
// coordinates, 131,072 ranks) draws them as a sorted distribution instead,
// percentiles and the worst entries named, and says so under its title;
// clicking its curve selects as the bar would.
class OwnerBalanceWidget : public QWidget, public StudioView {
    Q_OBJECT
public:
    explicit OwnerBalanceWidget(PlanSelection* selection, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    void showPlan(const PlanResult& plan) override { setResult(plan); }
    QList<ViewShot> screenshots() const override { return {ViewShot{{}, QSize(1200, 900), {}}}; }
    QImage picture(const QSize& size, const QString&) override { return renderImage(size); }
    // A report's parts: one chart, "coord", "rank" or "shard"; "group-coord"
    // and "group-shard" the same over the shown batch's group, its batches
    // summed (showGroupTotals), where the owner-imbalance rule judges a group.
    void paintPicture(QPaintDevice& target, const QSize& size, const QString& part) override;
    // As on screen: its width, every chart at least its minimum height (no scroll bar).
    QSize shownPictureSize() override;

    void setResult(const PlanResult& result);
    BatchRef shownBatch() const { return batch_; }
    // The coordinate and Newton–Schulz charts over the shown batch's whole
    // group, its batches summed per coordinate (true), or of the batch alone.
    void showGroupTotals(bool overGroup);
    bool showsGroupTotals() const { return groupTotals_; }
    const CoordBalance& balance() const { return balance_; }
    const ComputeLoads& computeLoads() const { return computeLoads_; }
    // The key of computeLoads()[i]'s bar: blocks of shard coordinates, a gap between replicates.
    double computeKey(size_t index) const;

    // The line above the charts: the owner rule, or why there is no chart.
    const QLabel* ruleLabel() const { return rule_; }
    QCustomPlot* coordPlot() const { return coordPlot_; }
    QCustomPlot* rankPlot() const { return rankPlot_; }
    QCustomPlot* shardPlot() const { return shardPlot_; }
    QCPBars* coordBars() const { return coordBars_; }
    QCPBars* heldBars() const { return heldBars_; }
    QCPBars* gatheredBars() const { return gatheredBars_; }
    QCPBars* computedBars() const { return computedBars_; }
    // Newton–Schulz bars of even and odd replicate coordinates (two colours).
    QCPBars* shardBars(int parity) const { return parity ? shardBarsOdd_ : shardBars_; }
    QList<QCustomPlot*> plots() const { return {coordPlot_, shardPlot_, rankPlot_}; }
    QCPGraph* meanLine() const { return meanLine_; }
    // The coordinate bar whose ranks are exactly the picked ranks, or -1.
    int pickedCoordinate() const { return pickedCoordinate_; }
    QCPGraph* lowerBoundLine() const { return lowerBoundLine_; }
    // Each plot's distribution form (isShown() while it replaces the bars).
    const DistributionChart& coordDistribution() const { return *coordDist_; }
    const DistributionChart& rankDistribution() const { return *rankDist_; }
    const DistributionChart& shardDistribution() const { return *shardDist_; }

    // What clicking coordinate bar `index` selects: that coordinate's ranks.
    void selectCoordinate(int index);
    void selectRank(int rank);
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(const QSize& size);

private:
    // The per-rank "gathered" series' name: what the plan's figure is under its strategy.
    QString gatheredSeriesName() const;
    QCustomPlot* makePlot(QCPTextElement** title);
    void onSelectionChanged();
    void showBatch();
    void showPickedCoordinate();
    void fillCoordPlot();
    void fillCoordBars();
    void fillCoordTitle();
    void fillRankPlot();
    void showWhetherPlanned();
    void fillRankBars();
    void fillShardPlot();
    void fillShardBars();
    void labelShardCounts(double top);
    bool fitShardTexts();
    void fitTicks(QCustomPlot* plot);
    bool refitForm(QCustomPlot* plot);
    DistributionChart& distributionOf(QCustomPlot* plot) const;
    size_t barCount(QCustomPlot* plot) const;
    void onPlotClicked(QCustomPlot* plot, const QPoint& pos);
    void showPickedEntries(const std::vector<int>& picked);
    void showCoordDistribution();
    void showRankDistribution();
    void showShardDistribution();
    size_t shardsPerReplicate() const;
    void replot(QCustomPlot* plot);
    // While one lives, replot() only notes the plot; the last one replots them.
    class HeldReplots {
    public:
        explicit HeldReplots(OwnerBalanceWidget& widget);
        ~HeldReplots();
        HeldReplots(const HeldReplots&) = delete;
        HeldReplots& operator=(const HeldReplots&) = delete;

    private:
        OwnerBalanceWidget& widget_;
    };

    PlanSelection* selection_;
    PlanResult result_;
    BatchRef batch_;
    bool groupTotals_ = false;
    CoordBalance balance_;
    ComputeLoads computeLoads_;
    std::map<QCustomPlot*, KeyTicks> keyTicks_;
    QCustomPlot* coordPlot_;
    QCustomPlot* rankPlot_;
    QCustomPlot* shardPlot_;
    QCPTextElement* coordTitle_ = nullptr;
    QCPTextElement* rankTitle_ = nullptr;
    QCPTextElement* shardTitle_ = nullptr;
    QCPBars* coordBars_;
    QCPBars* pickedBars_;
    int pickedCoordinate_ = -1;
    QCPBars* heldBars_;
    QCPBars* gatheredBars_;
    QCPBars* computedBars_;
    QCPBars* shardBars_;
    QCPBars* shardBarsOdd_;
    QScrollArea* scroll_;
    QLabel* rule_;  // the owner rule, or why there are no charts
    QCPGraph* meanLine_;
    QCPGraph* lowerBoundLine_;
    std::unique_ptr<DistributionChart> coordDist_, rankDist_, shardDist_;
    // The Newton–Schulz chart's texts: each bar's parameter count, each
    // replicate's title over its block (and the block's bars).
    std::vector<QCPItemText*> shardCounts_;
    std::vector<std::pair<QCPItemText*, double>> shardHeaders_;
    int replotHolds_ = 0;
    std::vector<QCustomPlot*> heldReplots_;
};

}  // namespace hsdp
