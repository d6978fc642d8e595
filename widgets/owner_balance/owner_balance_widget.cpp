// SPDX-License-Identifier: Apache-2.0
#include "owner_balance/owner_balance_widget.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <utility>

#include "derived/plan/plan_index.h"
#include "painting/heat_scale.h"
#include "plan/load_imbalance.h"
#include "view/offscreen_grab.h"
#include "view/plot_picture.h"

namespace hsdp {

namespace {

const QColor kBarColor(0x4c, 0x78, 0xa8);
const QColor kShardColor(0x59, 0xa1, 0x4f);
const QColor kMeanColor(0x44, 0x44, 0x44);
const QColor kBoundColor(0xe1, 0x57, 0x59);
const QColor kShardColorOdd(0x8c, 0xc0, 0x7e);  // odd replicate coordinates' blocks
const QColor kHeldColor(0xb0, 0xb8, 0xc4);
const QColor kGatheredColor(0xf2, 0x8e, 0x2b);
const QColor kPickColor(0x11, 0x11, 0x11);  // the mesh view's picked-rank outline

QString coordLabel(const Coord& coord) {
    QStringList parts;
    for (int64_t c : coord) parts << QString::number(c);
    return QStringLiteral("(%1)").arg(parts.join(QLatin1Char(',')));
}

// Value ticks in the mesh legend's units (250 M, 1.25 G), not 2.5·10^8.
class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return humanCount(tick);
    }
};

QString coordText(const Coord& coord) {
    return coord.empty() ? QObject::tr("() single owner") : coordLabel(coord);
}

// A Newton–Schulz bar's key label: its replicate coordinate, then its shard
// coordinate, "(1,0,1)": the shard coordinates repeat in every replicate's
// block, and "(0)" under each block's first bar told the bars apart no more
// than the mesh view's cells would without their replicate dims.
QString computeLabel(const ComputeLoads& loads, size_t index) {
    Coord coord = loads.replicateCoord(index);
    const Coord shard = loads.shardCoord(index);
    coord.insert(coord.end(), shard.begin(), shard.end());
    return coordLabel(coord);
}

// Pixels between neighbouring texts over the bars.
constexpr int kTextGap = 4;

QString loadImbalanceText(const std::vector<int64_t>& numels) {
    auto ratio = loadImbalance(numels);
    return ratio ? QString::number(*ratio, 'f', 2) : QStringLiteral("—");
}

QVector<double> indices(size_t count) {
    QVector<double> keys(static_cast<qsizetype>(count));
    for (size_t i = 0; i < count; ++i) keys[static_cast<qsizetype>(i)] = static_cast<double>(i);
    return keys;
}

QCPBars* makeBars(QCustomPlot* plot, const QColor& color, const QString& name) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(QPen(color.darker(130)));
    bars->setBrush(color);
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.75);
    return bars;
}

QCPGraph* makeLine(QCustomPlot* plot, const QColor& color, Qt::PenStyle style, const QString& name,
                   int width) {
    QCPGraph* line = plot->addGraph();
    line->setName(name);
    line->setPen(QPen(color, width, style));
    return line;
}

// Coordinates under their bars while there are few, bar numbers beyond.
QStringList keyLabels(const QStringList& labels) {
    if (labels.size() <= KeyTicks::kMaxMarkedTicks) return labels;
    QStringList numbers;
    for (qsizetype i = 0; i < labels.size(); ++i) numbers << QString::number(i);
    return numbers;
}

// A legend as one row under the axes, not an inset: in a short dock an inset
// legend covered the bars it explains.
void addLegendRow(QCustomPlot* plot, const QFont& font) {
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->axisRect()->insetLayout()->take(plot->legend);
    const int legendRow = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(legendRow, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(legendRow, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setMargins(QMargins(4, 0, 4, 2));
}

// The bar under `pos` in a plot of `count` bars at keys 0..count-1: the
// whole column counts, so a coordinate that owns nothing is clickable too.
int barIndexAt(QCustomPlot* plot, const QPoint& pos, size_t count) {
    if (!plot->axisRect()->rect().contains(pos)) return -1;
    double key = plot->xAxis->pixelToCoord(pos.x());
    long index = std::lround(key);
    if (index < 0 || static_cast<size_t>(index) >= count) return -1;
    return static_cast<int>(index);
}

QString humanValue(double value) {
    return humanCount(value);
}

void fitRanges(QCustomPlot* plot, size_t count, double top) {
    plot->xAxis->setRange(-0.6, std::max<double>(static_cast<double>(count), 1.0) - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.12 : 1.0);
}

}  // namespace

OwnerBalanceWidget::OwnerBalanceWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection) {
    coordPlot_ = makePlot(&coordTitle_);
    rankPlot_ = makePlot(&rankTitle_);
    shardPlot_ = makePlot(&shardTitle_);
    coordBars_ = makeBars(coordPlot_, kBarColor, tr("numel"));
    // The bound first, so the dashed mean stays visible where they meet.
    lowerBoundLine_ = makeLine(coordPlot_, kBoundColor, Qt::SolidLine, tr("lower bound"), 3);
    coordPlot_->setToolTip(
        tr("lower bound = max(largest param, total / coordinates): no "
           "owner assignment of whole params does better"));
    meanLine_ = makeLine(coordPlot_, kMeanColor, Qt::DashLine, tr("mean"), 2);
    addLegendRow(coordPlot_, QFont(font().family(), 8));
    coordPlot_->setMinimumHeight(160);  // the title and the legend row besides the bars
    pickedBars_ = makeBars(coordPlot_, kBarColor, tr("picked"));
    pickedBars_->setPen(QPen(kPickColor, 2));
    pickedBars_->removeFromLegend();
    heldBars_ = makeBars(rankPlot_, kHeldColor, tr("held"));
    gatheredBars_ = makeBars(rankPlot_, kGatheredColor, tr("gathered"));
    computedBars_ = makeBars(rankPlot_, kShardColor, tr("Newton–Schulz"));
    auto* rankGroup = new QCPBarsGroup(rankPlot_);
    rankGroup->setSpacing(0);
    for (QCPBars* bars : {heldBars_, gatheredBars_, computedBars_}) {
        bars->setWidth(0.27);
        bars->setPen(Qt::NoPen);
        rankGroup->append(bars);
    }
    addLegendRow(rankPlot_, QFont(font().family(), 8));
    shardBars_ = makeBars(shardPlot_, kShardColor, tr("Newton–Schulz numel"));
    shardBarsOdd_ = makeBars(shardPlot_, kShardColorOdd, tr("Newton–Schulz numel"));
    shardPlot_->legend->setVisible(false);
    // Each plot keeps the height its titles, ticks and legend need; a dock
    // shorter than all three scrolls instead of squashing the bars to slivers.
    shardPlot_->setMinimumHeight(160);
    rankPlot_->setMinimumHeight(170);
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    rule_ = new QLabel(content);
    rule_->setWordWrap(true);
    rule_->setContentsMargins(6, 2, 6, 2);
    column->addWidget(rule_);
    column->addWidget(coordPlot_, 3);
    column->addWidget(shardPlot_, 2);
    column->addWidget(rankPlot_, 2);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    shardPlot_->hide();
    coordDist_ = std::make_unique<DistributionChart>(coordPlot_);
    rankDist_ = std::make_unique<DistributionChart>(rankPlot_);
    shardDist_ = std::make_unique<DistributionChart>(shardPlot_);
    showWhetherPlanned();
    connect(selection_, &PlanSelection::changed, this, &OwnerBalanceWidget::onSelectionChanged);
    for (QCustomPlot* plot : {coordPlot_, rankPlot_, shardPlot_})
        connect(plot, &QCustomPlot::mouseRelease, this,
                [this, plot](QMouseEvent* event) { onPlotClicked(plot, event->pos()); });
}

DistributionChart& OwnerBalanceWidget::distributionOf(QCustomPlot* plot) const {
    return plot == coordPlot_ ? *coordDist_ : plot == rankPlot_ ? *rankDist_ : *shardDist_;
}

// Bars side by side on `plot`: three a rank (held, gathered, computed).
size_t OwnerBalanceWidget::barCount(QCustomPlot* plot) const {
    if (plot == coordPlot_) return balance_.coords.size();
    if (plot == shardPlot_) return computeLoads_.size();
    return result_.isValid() ? result_.plan->ranks.size() * 3 : 0;
}

// A coordinate bar or point selects its ranks, a rank's its rank, a point of
// the Newton–Schulz distribution the ranks computing there.
void OwnerBalanceWidget::onPlotClicked(QCustomPlot* plot, const QPoint& pos) {
    const DistributionChart& distribution = distributionOf(plot);
    if (plot == coordPlot_)
        selectCoordinate(distribution.isShown() ? distribution.pickAt(pos).entry
                                                : barIndexAt(plot, pos, balance_.coords.size()));
    else if (plot == rankPlot_ && result_.isValid())
        selectRank(distribution.isShown() ? distribution.pickAt(pos).entry
                                          : barIndexAt(plot, pos, result_.plan->ranks.size()));
    else if (plot == shardPlot_ && distribution.isShown())
        if (const int entry = distribution.pickAt(pos).entry; entry >= 0)
            selection_->selectRanks(computeLoads_.rankList(static_cast<size_t>(entry)));
}

QCustomPlot* OwnerBalanceWidget::makePlot(QCPTextElement** title) {
    auto* plot = new QCustomPlot(this);
    plot->setMinimumHeight(90);
    plot->plotLayout()->insertRow(0);
    *title = new QCPTextElement(plot, QString(), QFont(font().family(), 9, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, *title);
    plot->yAxis->setLabel(tr("numel"));
    QSharedPointer<QCPAxisTicker> ticker(new CountTicker);
    ticker->setTickCount(4);
    plot->yAxis->setTicker(ticker);
    plot->xAxis->grid()->setVisible(false);
    plot->setAutoAddPlottableToLegend(true);
    connect(plot, &QCustomPlot::afterLayout, this, [this, plot] { fitTicks(plot); });
    return plot;
}

void OwnerBalanceWidget::setResult(const PlanResult& result) {
    HeldReplots held(*this);
    result_ = result;
    batch_ = {};
    showWhetherPlanned();
    fillRankPlot();
    onSelectionChanged();
}

// Without a plan (none opened yet, or the file could not be read) the charts
// would be empty axes from 0 to 5: say so instead. With one, the line above
// the charts states the rule that made the loads.
void OwnerBalanceWidget::showWhetherPlanned() {
    const bool planned = result_.isValid();
    coordPlot_->setVisible(planned);
    rankPlot_->setVisible(planned);
    if (!planned) shardPlot_->hide();
    rule_->setText(planned ? tr("Owners: each batch gives its params, largest first, to the "
                                "replicate coordinate with the least load so far (greedy).")
                           : tr("No plan: open a scenario (File ▸ Open, Ctrl+O) to see its "
                                "owner balance."));
}

// Filling a chart replots it at several steps; while held, each plot
// replots once at the end (a replot paints: 30 ms at 131,072 ranks).
void OwnerBalanceWidget::replot(QCustomPlot* plot) {
    if (!replotHolds_) {
        plot->replot();
        return;
    }
    if (std::find(heldReplots_.begin(), heldReplots_.end(), plot) == heldReplots_.end())
        heldReplots_.push_back(plot);
}

OwnerBalanceWidget::HeldReplots::HeldReplots(OwnerBalanceWidget& widget) : widget_(widget) {
    ++widget_.replotHolds_;
}

OwnerBalanceWidget::HeldReplots::~HeldReplots() {
    if (--widget_.replotHolds_ > 0) return;
    for (QCustomPlot* plot : std::exchange(widget_.heldReplots_, {})) plot->replot();
}

void OwnerBalanceWidget::onSelectionChanged() {
    if (!result_.isValid()) return;
    HeldReplots held(*this);
    BatchRef batch = balanceBatch(
        *result_.plan, selection_->stateFor(result_),
        worstBatch(*result_.plan, result_.index->worstGroup, result_.index->worstBatch));
    if (batch != batch_ || !batch.isValid()) {  // a rank pick keeps the chart
        batch_ = batch;
        showBatch();
    }
    showPickedCoordinate();
}

// Outlines the coordinate whose ranks are exactly the picked ones (found
// from the first picked rank's coordinate: one pass, at 131,072 ranks too).
void OwnerBalanceWidget::showPickedCoordinate() {
    pickedCoordinate_ = -1;
    const std::vector<int> picked = selection_->stateFor(result_).ranks;
    if (batch_.isValid() && !picked.empty()) {
        const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
        pickedCoordinate_ =
            coordinateOfRanks(group, balance_, picked, result_.plan->effectiveReplicaCount);
    }
    pickedBars_->data()->clear();
    if (pickedCoordinate_ >= 0 && !coordDist_->isShown())
        pickedBars_->addData(
            pickedCoordinate_,
            static_cast<double>(balance_.numel[static_cast<size_t>(pickedCoordinate_)]));
    coordDist_->markEntry(pickedCoordinate_);
    showPickedEntries(picked);
    replot(coordPlot_);
}

// On a distribution the picked rank, or the shard coordinate whose
// computing ranks are the picked ones, ringed on its curve.
void OwnerBalanceWidget::showPickedEntries(const std::vector<int>& picked) {
    if (rankDist_->isShown()) {
        int entry = -1;
        const auto& ranks = result_.plan->ranks;
        for (size_t i = 0; picked.size() == 1 && i < ranks.size() && entry < 0; ++i)
            if (ranks[i].rank == picked.front()) entry = static_cast<int>(i);
        rankDist_->markEntry(entry);
        replot(rankPlot_);
    }
    if (shardDist_->isShown()) {
        shardDist_->markEntry(computeLoads_.entryOfRanks(picked));
        replot(shardPlot_);
    }
}

void OwnerBalanceWidget::showBatch() {
    const Batch* batch = batchAt(*result_.plan, batch_);
    const Group* group = batch ? &result_.plan->groups[static_cast<size_t>(batch_.group)] : nullptr;
    const auto replicas = result_.plan->effectiveReplicaCount;
    if (group && groupTotals_) {
        balance_ = coordBalance(*result_.scenario, *group);
        computeLoads_ = hsdp::computeLoads(*result_.scenario, *group, replicas);
    } else {
        balance_ = batch ? coordBalance(*result_.scenario, *batch) : CoordBalance{};
        computeLoads_ = group ? hsdp::computeLoads(*result_.scenario, *group, *batch, replicas)
                              : ComputeLoads{};
    }
    fillCoordPlot();
    fillShardPlot();
}

void OwnerBalanceWidget::showGroupTotals(bool overGroup) {
    if (overGroup == groupTotals_) return;
    HeldReplots held(*this);
    groupTotals_ = overGroup;
    if (result_.isValid()) {
        showBatch();
        showPickedCoordinate();
    }
}

void OwnerBalanceWidget::fillCoordPlot() {
    if (wantsDistribution(barCount(coordPlot_), *coordPlot_))
        showCoordDistribution();
    else
        fillCoordBars();
    fillCoordTitle();
}

void OwnerBalanceWidget::fillCoordBars() {
    coordDist_->hide();
    QStringList labels;
    QVector<double> values;
    for (size_t i = 0; i < balance_.coords.size(); ++i) {
        labels << coordText(balance_.coords[i]);
        values << static_cast<double>(balance_.numel[i]);
    }
    coordBars_->setData(indices(labels.size()), values, true);
    double right = std::max<double>(static_cast<double>(labels.size()), 1.0) - 0.4;
    meanLine_->setData({-0.6, right}, {balance_.mean, balance_.mean});
    lowerBoundLine_->setData({-0.6, right}, {balance_.lowerBound, balance_.lowerBound});
    coordPlot_->xAxis->setLabel(tr("owner (replicate) coordinate"));
    keyTicks_[coordPlot_].setLabels(indices(labels.size()), keyLabels(labels));
    double top = std::max(balance_.lowerBound, balance_.mean);
    for (double v : values) top = std::max(top, v);
    fitRanges(coordPlot_, labels.size(), top);
}

void OwnerBalanceWidget::showCoordDistribution() {
    coordBars_->data()->clear();
    keyTicks_.erase(coordPlot_);
    coordDist_->show(
        {{tr("numel"), kBarColor, std::vector<double>(balance_.numel.begin(), balance_.numel.end()),
          nullptr}},
        {tr("coordinates"), [this](int entry) { return coordText(balance_.coords[size_t(entry)]); },
         humanValue, /*meanLines=*/false});
    meanLine_->setData({0, 100}, {balance_.mean, balance_.mean});
    lowerBoundLine_->setData({0, 100}, {balance_.lowerBound, balance_.lowerBound});
    const double top = std::max({coordDist_->top(), balance_.lowerBound, balance_.mean});
    coordPlot_->yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
}

void OwnerBalanceWidget::fillCoordTitle() {
    QString title = tr("No batch");
    if (batch_.isValid()) {
        const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
        const Batch& batch = group.batches[static_cast<size_t>(batch_.batch)];
        // One line that fits a narrow dock; the mean and the bound name
        // their values in the legend.
        const QString ratio =
            balance_.imbalance ? QString::number(*balance_.imbalance, 'f', 2) : QStringLiteral("—");
        title = groupTotals_ ? tr("Group %1 · its %2 batches summed · max/mean %3")
                                   .arg(group.id)
                                   .arg(group.batches.size())
                                   .arg(ratio)
                             : tr("Group %1 · batch %2%3 · max/mean %4")
                                   .arg(group.id)
                                   .arg(batch_.batch)
                                   .arg(batch.isShard ? tr(" (gathered)") : QString())
                                   .arg(ratio);
    }
    // No param outweighs the mean: the bound is the mean, and two lines in
    // one place with two legend entries read as a drawing fault. One line
    // says both.
    const bool boundIsMean = balance_.lowerBound <= balance_.mean;
    meanLine_->setName(boundIsMean ? tr("mean = bound %1").arg(humanCount(balance_.mean))
                                   : tr("mean %1").arg(humanCount(balance_.mean)));
    lowerBoundLine_->setName(tr("bound %1").arg(humanCount(balance_.lowerBound)));
    lowerBoundLine_->setVisible(!boundIsMean);
    if (boundIsMean)
        lowerBoundLine_->removeFromLegend();
    else
        lowerBoundLine_->addToLegend();
    coordTitle_->setText(title);
    replot(coordPlot_);
}

namespace {

// Whether a group of the plan gathers under all-to-all, whose ranks receive
// only the matrices they compute: the plan's gathered figure is then what
// the all-gather would bring, and the series says so.
bool anyAllToAll(const Plan& plan) {
    return std::any_of(plan.groups.begin(), plan.groups.end(), [](const Group& g) {
        return g.gatherStrategy == GatherStrategy::AllToAll &&
               std::any_of(g.batches.begin(), g.batches.end(),
                           [](const Batch& b) { return b.isShard; });
    });
}

}  // namespace

QString OwnerBalanceWidget::gatheredSeriesName() const {
    return result_.isValid() && anyAllToAll(*result_.plan)
               ? tr("gathered under all-gather (this plan's all-to-all receives less)")
               : tr("gathered");
}

void OwnerBalanceWidget::fillRankPlot() {
    gatheredBars_->setName(gatheredSeriesName());
    std::vector<int64_t> computedNumel;
    if (result_.isValid())
        for (const RankOwnership& rank : result_.plan->ranks)
            computedNumel.push_back(rank.computedNumel);
    if (wantsDistribution(barCount(rankPlot_), *rankPlot_))
        showRankDistribution();
    else
        fillRankBars();
    rankTitle_->setText(
        tr("Per rank, all batches · NS max/mean %1").arg(loadImbalanceText(computedNumel)));
    replot(rankPlot_);
}

void OwnerBalanceWidget::showRankDistribution() {
    for (QCPBars* bars : {heldBars_, gatheredBars_, computedBars_}) bars->data()->clear();
    keyTicks_.erase(rankPlot_);
    const PlanIndex& index = *result_.index;
    rankDist_->show({{tr("held"), kHeldColor, {}, index.heldByRank},
                     {gatheredSeriesName(), kGatheredColor, {}, index.gatheredByRank},
                     {tr("Newton–Schulz"), kShardColor, {}, index.computedByRank}},
                    {tr("ranks"),
                     [this](int entry) {
                         return rankEntryName(result_.scenario.get(),
                                              result_.plan->ranks[size_t(entry)].rank);
                     },
                     humanValue});
}

void OwnerBalanceWidget::fillRankBars() {
    rankDist_->hide();
    QVector<double> held, gathered, computed;
    QStringList labels;
    if (result_.isValid())
        for (const RankOwnership& rank : result_.plan->ranks) {
            held << static_cast<double>(rank.heldNumel);
            gathered << static_cast<double>(rank.gatheredNumel);
            computed << static_cast<double>(rank.computedNumel);
            labels << QString::number(rank.rank);
        }
    const QVector<double> keys = indices(held.size());
    heldBars_->setData(keys, held, true);
    gatheredBars_->setData(keys, gathered, true);
    computedBars_->setData(keys, computed, true);
    rankPlot_->xAxis->setLabel(tr("rank"));
    keyTicks_[rankPlot_].setLabels(keys, labels);
    double top = 0;
    for (const auto* values : {&held, &gathered, &computed})
        for (double v : *values) top = std::max(top, v);
    fitRanges(rankPlot_, held.size(), top);
}

size_t OwnerBalanceWidget::shardsPerReplicate() const {
    return computeLoads_.shardsPerReplicate();
}

double OwnerBalanceWidget::computeKey(size_t index) const {
    const size_t shards = shardsPerReplicate();
    return static_cast<double>(index / shards * (shards + 1) + index % shards);
}

void OwnerBalanceWidget::fillShardPlot() {
    shardPlot_->setVisible(!computeLoads_.empty());
    if (wantsDistribution(barCount(shardPlot_), *shardPlot_))
        showShardDistribution();
    else
        fillShardBars();
    shardTitle_->setText(
        groupTotals_ && batch_.isValid()
            ? tr("Newton–Schulz numel per shard coordinate · group %1's batches summed")
                  .arg(result_.plan->groups[static_cast<size_t>(batch_.group)].id)
            : tr("Newton–Schulz numel per shard coordinate"));
    replot(shardPlot_);
}

void OwnerBalanceWidget::showShardDistribution() {
    shardBars_->data()->clear();
    shardBarsOdd_->data()->clear();
    keyTicks_.erase(shardPlot_);
    shardPlot_->clearItems();  // the bars' parameter counts
    shardCounts_.clear();
    shardHeaders_.clear();
    std::vector<double> numel(computeLoads_.numels().begin(), computeLoads_.numels().end());
    shardDist_->show({{tr("Newton–Schulz numel"), kShardColor, std::move(numel), nullptr}},
                     {tr("replicate × shard coordinates"),
                      [this](int entry) {
                          const auto i = size_t(entry);
                          return tr("%1 shard %2")
                              .arg(coordText(computeLoads_.replicateCoord(i)),
                                   coordLabel(computeLoads_.shardCoord(i)));
                      },
                      humanValue});
}

void OwnerBalanceWidget::fillShardBars() {
    shardDist_->hide();
    QStringList labels;
    QVector<double> keys, values;
    QVector<double> evenKeys, evenValues, oddKeys, oddValues;
    for (size_t i = 0; i < computeLoads_.size(); ++i) {
        const size_t block = computeLoads_.replicateIndex(i);
        labels << computeLabel(computeLoads_, i);
        keys << computeKey(i);
        values << static_cast<double>(computeLoads_.numel(i));
        (block % 2 ? oddKeys : evenKeys) << keys.back();
        (block % 2 ? oddValues : evenValues) << values.back();
    }
    shardBars_->setData(evenKeys, evenValues, true);
    shardBarsOdd_->setData(oddKeys, oddValues, true);
    const bool replicated = !computeLoads_.empty() && !computeLoads_.replicateCoord(0).empty();
    shardPlot_->xAxis->setLabel(replicated ? tr("replicate, shard coordinate · params on the bars")
                                           : tr("shard coordinate · params on the bars"));
    // Shard coordinates repeat per replicate: thin them the same way in every block.
    const bool named = labels.size() <= KeyTicks::kMaxMarkedTicks;
    keyTicks_[shardPlot_].setLabels(keys, keyLabels(labels),
                                    named ? static_cast<int>(shardsPerReplicate()) : 0);
    double top = values.isEmpty() ? 0 : *std::max_element(values.begin(), values.end());
    fitRanges(shardPlot_, 0, top);
    shardPlot_->xAxis->setRange(-0.6, keys.isEmpty() ? 1.0 : keys.back() + 0.6);
    labelShardCounts(top);
}

// Each bar's parameter count on it, and each replicate coordinate over its
// block: the blocks are the ranks of different replicas, never summed.
void OwnerBalanceWidget::labelShardCounts(double top) {
    shardPlot_->clearItems();
    shardCounts_.clear();
    shardHeaders_.clear();
    if (computeLoads_.size() > static_cast<size_t>(KeyTicks::kMaxMarkedTicks)) return;
    if (top > 0) shardPlot_->yAxis->setRangeUpper(top * 1.45);  // room for the numbers
    auto addText = [this](double key, double value, const QString& text, double scale) {
        auto* item = new QCPItemText(shardPlot_);
        item->position->setCoords(key, value);
        item->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        item->setClipToAxisRect(false);
        item->setText(text);
        QFont font = item->font();
        font.setPointSizeF(font.pointSizeF() * scale);
        item->setFont(font);
        return item;
    };
    const double height = top > 0 ? top : 1.0;
    size_t first = 0;                // the block's first load
    QCPItemText* tallest = nullptr;  // the block's highest count
    for (size_t i = 0; i < computeLoads_.size(); ++i) {
        const double value = static_cast<double>(computeLoads_.numel(i)) + height * 0.01;
        shardCounts_.push_back(
            addText(computeKey(i), value, QString::number(computeLoads_.count(i)), 0.8));
        if (!tallest || value > tallest->position->value()) tallest = shardCounts_.back();
        const bool last = i + 1 == computeLoads_.size() ||
                          computeLoads_.replicateIndex(i + 1) != computeLoads_.replicateIndex(i);
        if (!last) continue;
        const QString coord = coordText(computeLoads_.replicateCoord(i));
        const double middle = (computeKey(first) + computeKey(i)) / 2;
        QCPItemText* header =
            addText(middle, 0, first == 0 ? tr("replicate %1").arg(coord) : coord, 0.8);
        // Above the block's highest count, in pixels: at a fixed height over
        // the bars it met the counts of a short plot.
        header->position->setTypeY(QCPItemPosition::ptAbsolute);
        header->position->setParentAnchorY(tallest->top);
        header->position->setCoords(middle, -2);
        shardHeaders_.push_back({header, double(i - first + 1)});
        first = i + 1;
        tallest = nullptr;
    }
    fitShardTexts();
}

// The counts over the bars while each fits its bar's slot, else none (side
// by side they ran together into one long number: "3555555554444477"); a
// replicate's title while it fits its block. True when that changed.
bool OwnerBalanceWidget::fitShardTexts() {
    const double slot =
        shardPlot_->axisRect()->width() / std::max(shardPlot_->xAxis->range().size(), 1e-9);
    double widest = 0;
    for (QCPItemText* count : shardCounts_)
        widest =
            std::max<double>(widest, QFontMetrics(count->font()).horizontalAdvance(count->text()));
    bool changed = false;
    const auto show = [&changed](QCPItemText* item, bool visible) {
        changed = changed || item->visible() != visible;
        item->setVisible(visible);
    };
    for (QCPItemText* count : shardCounts_) show(count, widest + kTextGap <= slot);
    for (const auto& [header, bars] : shardHeaders_)
        show(header, QFontMetrics(header->font()).horizontalAdvance(header->text()) + kTextGap <=
                         bars * slot);
    return changed;
}

// After each layout: key labels that fit the width, value ticks the height.
void OwnerBalanceWidget::fitTicks(QCustomPlot* plot) {
    if (refitForm(plot)) {
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    bool changed = distributionOf(plot).fit();
    // Value labels at least two text lines apart, two to four of them.
    const int valueTicks = std::clamp(plot->axisRect()->height() / 36, 1, 3) + 1;
    if (plot->yAxis->ticker()->tickCount() != valueTicks) {
        plot->yAxis->ticker()->setTickCount(valueTicks);
        changed = true;
    }
    auto it = keyTicks_.find(plot);
    // Upright labels may take a fifth of the plot's height, no more.
    if (it != keyTicks_.end()) changed = it->second.fit(plot->xAxis, plot->height() / 5) || changed;
    if (plot == shardPlot_) changed = fitShardTexts() || changed;
    if (changed) plot->replot(QCustomPlot::rpQueuedReplot);
}

// Bars or distribution, as the plot's width now asks; true when that changed.
bool OwnerBalanceWidget::refitForm(QCustomPlot* plot) {
    if (!result_.isValid() ||
        wantsDistribution(barCount(plot), *plot) == distributionOf(plot).isShown())
        return false;
    if (plot == coordPlot_)
        fillCoordPlot();
    else if (plot == rankPlot_)
        fillRankPlot();
    else
        fillShardPlot();
    showPickedCoordinate();
    return true;
}

void OwnerBalanceWidget::selectCoordinate(int index) {
    if (!batch_.isValid() || index < 0 || static_cast<size_t>(index) >= balance_.coords.size())
        return;
    const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
    selection_->selectRanks(ranksAtCoordinate(group, balance_.coords[static_cast<size_t>(index)],
                                              result_.plan->effectiveReplicaCount));
}

void OwnerBalanceWidget::selectRank(int index) {
    if (!result_.isValid() || index < 0 || static_cast<size_t>(index) >= result_.plan->ranks.size())
        return;
    selection_->selectRanks({result_.plan->ranks[static_cast<size_t>(index)].rank});
}

QImage OwnerBalanceWidget::renderImage(const QSize& size) {
    return grabOffscreen(*this, size, [this] {
        // Three times: the first layout picks bars or a distribution for
        // the width, the next fits the tick labels, the last lays the axes
        // out around them.
        for (int pass = 0; pass < 3; ++pass)
            for (QCustomPlot* plot : {coordPlot_, rankPlot_, shardPlot_}) plot->replot();
    });
}

QSize OwnerBalanceWidget::shownPictureSize() {
    return {width(), std::max(height(), scroll_->widget()->minimumSizeHint().height())};
}

void OwnerBalanceWidget::paintPicture(QPaintDevice& target, const QSize& size,
                                      const QString& part) {
    const bool overGroup = part.startsWith(QLatin1String("group-"));
    const QString chart = overGroup ? part.mid(6) : part;
    QCustomPlot* plot = chart == QLatin1String("rank")    ? rankPlot_
                        : chart == QLatin1String("shard") ? shardPlot_
                                                          : coordPlot_;
    const bool before = groupTotals_;
    showGroupTotals(overGroup);
    paintPlotPicture(*plot, target, size);
    showGroupTotals(before);
}

}  // namespace hsdp
