#pragma once

#include <QWidget>

#include "models/balance_data.h"
#include "models/plan_result.h"
#include "models/plan_selection.h"

class QCPBars;
class QCPGraph;
class QCustomPlot;
class QCPTextElement;

namespace hsdp {

// Owner load balance of the plan, as the plan states it (never recomputed):
// numel per owner coordinate of one batch (Batch::loads) against its mean
// and the lower bound max(largest param, total / coordinates), the
// imbalance in the title; owned numel per rank over all batches
// (Plan::ranks); and for a gathered batch the Newton–Schulz load per shard
// coordinate (Batch::shardCompute). The batch follows the selection (its
// group/batch, else its param's), else the worst batch. Clicking a
// coordinate bar selects that coordinate's ranks, a rank bar that rank.
class OwnerBalanceView : public QWidget {
    Q_OBJECT
public:
    explicit OwnerBalanceView(PlanSelection* selection, QWidget* parent = nullptr);

    void setResult(const PlanResult& result);
    BatchRef shownBatch() const { return batch_; }
    const CoordBalance& balance() const { return balance_; }
    const std::vector<ShardLoad>& shardLoads() const { return shardLoads_; }

    QCustomPlot* coordPlot() const { return coordPlot_; }
    QCustomPlot* rankPlot() const { return rankPlot_; }
    QCustomPlot* shardPlot() const { return shardPlot_; }
    QCPBars* coordBars() const { return coordBars_; }
    QCPBars* rankBars() const { return rankBars_; }
    QCPBars* shardBars() const { return shardBars_; }
    QCPGraph* meanLine() const { return meanLine_; }
    // The coordinate bar whose ranks are exactly the picked ranks, or -1.
    int pickedCoordinate() const { return pickedCoordinate_; }
    QCPGraph* lowerBoundLine() const { return lowerBoundLine_; }

    // What clicking coordinate bar `index` selects: that coordinate's ranks.
    void selectCoordinate(int index);
    void selectRank(int rank);
    // The widget laid out at `size` and painted, never on screen.
    QImage renderImage(const QSize& size);

private:
    QCustomPlot* makePlot(QCPTextElement** title);
    void onSelectionChanged();
    void showBatch();
    void showPickedCoordinate();
    void fillCoordPlot();
    void fillRankPlot();
    void fillShardPlot();
    void labelShardCounts(double top);

    PlanSelection* selection_;
    PlanResult result_;
    BatchRef batch_;
    CoordBalance balance_;
    std::vector<ShardLoad> shardLoads_;
    QCustomPlot* coordPlot_;
    QCustomPlot* rankPlot_;
    QCustomPlot* shardPlot_;
    QCPTextElement* coordTitle_ = nullptr;
    QCPTextElement* rankTitle_ = nullptr;
    QCPTextElement* shardTitle_ = nullptr;
    QCPBars* coordBars_;
    QCPBars* pickedBars_;
    int pickedCoordinate_ = -1;
    QCPBars* rankBars_;
    QCPBars* shardBars_;
    QCPGraph* meanLine_;
    QCPGraph* lowerBoundLine_;
};

}  // namespace hsdp
