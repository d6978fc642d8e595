#include "views/owner_balance_view.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "plan/load_imbalance.h"
#include "views/heat_scale.h"

namespace hsdp {

namespace {

const QColor kBarColor(0x4c, 0x78, 0xa8);
const QColor kRankColor(0x72, 0x9e, 0xce);
const QColor kShardColor(0x59, 0xa1, 0x4f);
const QColor kMeanColor(0x44, 0x44, 0x44);
const QColor kBoundColor(0xe1, 0x57, 0x59);
const QColor kPickColor(0x11, 0x11, 0x11);  // the mesh view's picked-rank outline
constexpr int kMaxTextTicks = 32;           // more bars than this get numeric ticks

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

void setIndexTicks(QCPAxis* axis);

// Bar labels under the bars while they fit, plain bar numbers beyond.
void setKeyLabels(QCPAxis* axis, const QStringList& labels, const QString& label) {
    axis->setLabel(label);
    axis->setTickLabelRotation(0);
    if (labels.size() > kMaxTextTicks) {
        setIndexTicks(axis);
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, labels[i]);
    axis->setTicker(ticker);
}

// Whole-number ticks that thin out (1, 2, 5, 10, ...) when bars get narrow.
void setIndexTicks(QCPAxis* axis) {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    ticker->setTickCount(12);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
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

void fitRanges(QCustomPlot* plot, size_t count, double top) {
    plot->xAxis->setRange(-0.6, std::max<double>(static_cast<double>(count), 1.0) - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.12 : 1.0);
}

}  // namespace

OwnerBalanceView::OwnerBalanceView(PlanSelection* selection, QWidget* parent)
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
    coordPlot_->legend->setVisible(true);
    coordPlot_->legend->setFont(QFont(font().family(), 8));
    coordPlot_->legend->setBrush(QColor(255, 255, 255, 220));
    // One row under the axes, not an inset: in a short dock an inset legend
    // covered the bars it explains.
    coordPlot_->axisRect()->insetLayout()->take(coordPlot_->legend);
    const int legendRow = coordPlot_->plotLayout()->rowCount();
    coordPlot_->plotLayout()->addElement(legendRow, 0, coordPlot_->legend);
    coordPlot_->plotLayout()->setRowStretchFactor(legendRow, 0.001);
    coordPlot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    coordPlot_->legend->setBorderPen(Qt::NoPen);
    coordPlot_->legend->setMargins(QMargins(4, 0, 4, 2));
    coordPlot_->setMinimumHeight(150);  // a two-line title and the legend row besides the bars
    pickedBars_ = makeBars(coordPlot_, kBarColor, tr("picked"));
    pickedBars_->setPen(QPen(kPickColor, 2));
    pickedBars_->removeFromLegend();
    rankBars_ = makeBars(rankPlot_, kRankColor, tr("owned numel"));
    shardBars_ = makeBars(shardPlot_, kShardColor, tr("Newton–Schulz numel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(coordPlot_, 3);
    layout->addWidget(shardPlot_, 2);
    layout->addWidget(rankPlot_, 2);
    shardPlot_->hide();
    connect(selection_, &PlanSelection::changed, this, &OwnerBalanceView::onSelectionChanged);
    connect(coordPlot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        selectCoordinate(barIndexAt(coordPlot_, event->pos(), balance_.coords.size()));
    });
    connect(rankPlot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (result_.isValid())
            selectRank(barIndexAt(rankPlot_, event->pos(), result_.plan->ranks.size()));
    });
}

QCustomPlot* OwnerBalanceView::makePlot(QCPTextElement** title) {
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
    return plot;
}

void OwnerBalanceView::setResult(const PlanResult& result) {
    result_ = result;
    batch_ = {};
    fillRankPlot();
    onSelectionChanged();
}

void OwnerBalanceView::onSelectionChanged() {
    if (!result_.isValid()) return;
    BatchRef batch = balanceBatch(*result_.plan, selection_->stateFor(result_));
    if (batch != batch_ || !batch.isValid()) {  // a rank pick keeps the chart
        batch_ = batch;
        showBatch();
    }
    showPickedCoordinate();
}

// Outlines the coordinate whose ranks are exactly the picked ones.
void OwnerBalanceView::showPickedCoordinate() {
    pickedCoordinate_ = -1;
    const std::vector<int> picked = selection_->stateFor(result_).ranks;
    if (batch_.isValid() && !picked.empty()) {
        const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
        for (size_t i = 0; i < balance_.coords.size() && pickedCoordinate_ < 0; ++i)
            if (ranksAtCoordinate(group, balance_.coords[i], result_.plan->effectiveReplicaCount) ==
                picked)
                pickedCoordinate_ = static_cast<int>(i);
    }
    pickedBars_->data()->clear();
    if (pickedCoordinate_ >= 0)
        pickedBars_->addData(
            pickedCoordinate_,
            static_cast<double>(balance_.numel[static_cast<size_t>(pickedCoordinate_)]));
    coordPlot_->replot();
}

void OwnerBalanceView::showBatch() {
    const Batch* batch = batchAt(*result_.plan, batch_);
    balance_ = batch ? coordBalance(*result_.scenario, *batch) : CoordBalance{};
    shardLoads_ = batch ? hsdp::shardLoads(*result_.scenario, *batch) : std::vector<ShardLoad>{};
    fillCoordPlot();
    fillShardPlot();
}

void OwnerBalanceView::fillCoordPlot() {
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
    setKeyLabels(coordPlot_->xAxis, labels, tr("owner (replicate) coordinate"));
    double top = std::max(balance_.lowerBound, balance_.mean);
    for (double v : values) top = std::max(top, v);
    fitRanges(coordPlot_, labels.size(), top);
    QString title = tr("No batch");
    if (batch_.isValid()) {
        const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
        const Batch& batch = group.batches[static_cast<size_t>(batch_.batch)];
        title = tr("Group %1 · batch %2%3 · numel per owner coordinate\n"
                   "max/mean %4 · mean %5 · lower bound %6")
                    .arg(group.id)
                    .arg(batch_.batch)
                    .arg(batch.isShard ? tr(" (gathered)") : QString())
                    .arg(balance_.imbalance ? QString::number(*balance_.imbalance, 'f', 2)
                                            : QStringLiteral("—"))
                    .arg(humanCount(balance_.mean), humanCount(balance_.lowerBound));
    }
    coordTitle_->setText(title);
    coordPlot_->replot();
}

void OwnerBalanceView::fillRankPlot() {
    QVector<double> values;
    if (result_.isValid())
        for (const RankOwnership& rank : result_.plan->ranks)
            values << static_cast<double>(rank.ownedNumel);
    rankBars_->setData(indices(values.size()), values, true);
    setIndexTicks(rankPlot_->xAxis);
    rankPlot_->xAxis->setLabel(tr("rank"));
    double top = values.isEmpty() ? 0 : *std::max_element(values.begin(), values.end());
    fitRanges(rankPlot_, values.size(), top);
    std::vector<int64_t> owned;
    for (double v : values) owned.push_back(static_cast<int64_t>(v));
    auto ratio = loadImbalanceText(owned);
    rankTitle_->setText(tr("Owned numel per rank, all batches · max/mean %1").arg(ratio));
    rankPlot_->replot();
}

void OwnerBalanceView::fillShardPlot() {
    shardPlot_->setVisible(!shardLoads_.empty());
    QStringList labels;
    QVector<double> values;
    for (const ShardLoad& load : shardLoads_) {
        labels << coordLabel(load.coord);
        values << static_cast<double>(load.numel);
    }
    shardBars_->setData(indices(values.size()), values, true);
    setKeyLabels(shardPlot_->xAxis, labels, tr("shard coordinate · params on the bars"));
    double top = values.isEmpty() ? 0 : *std::max_element(values.begin(), values.end());
    fitRanges(shardPlot_, values.size(), top);
    labelShardCounts(top);
    shardTitle_->setText(tr("Newton–Schulz numel per shard coordinate"));
    shardPlot_->replot();
}

// Each coordinate's parameter count on its bar: a short number fits where
// "(0,1) · 20 params" under eight docked bars ran into its neighbours.
void OwnerBalanceView::labelShardCounts(double top) {
    shardPlot_->clearItems();
    if (shardLoads_.size() > static_cast<size_t>(kMaxTextTicks)) return;
    if (top > 0) shardPlot_->yAxis->setRangeUpper(top * 1.3);  // room for the numbers
    for (size_t i = 0; i < shardLoads_.size(); ++i) {
        auto* text = new QCPItemText(shardPlot_);
        text->position->setCoords(static_cast<double>(i),
                                  static_cast<double>(shardLoads_[i].numel) + top * 0.01);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setClipToAxisRect(false);
        text->setText(QString::number(shardLoads_[i].count));
        QFont font = text->font();
        font.setPointSizeF(font.pointSizeF() * 0.85);
        text->setFont(font);
    }
}

void OwnerBalanceView::selectCoordinate(int index) {
    if (!batch_.isValid() || index < 0 || static_cast<size_t>(index) >= balance_.coords.size())
        return;
    const Group& group = result_.plan->groups[static_cast<size_t>(batch_.group)];
    selection_->selectRanks(ranksAtCoordinate(group, balance_.coords[static_cast<size_t>(index)],
                                              result_.plan->effectiveReplicaCount));
}

void OwnerBalanceView::selectRank(int index) {
    if (!result_.isValid() || index < 0 || static_cast<size_t>(index) >= result_.plan->ranks.size())
        return;
    selection_->selectRanks({result_.plan->ranks[static_cast<size_t>(index)].rank});
}

QImage OwnerBalanceView::renderImage(const QSize& size) {
    bool wasVisible = isVisible();
    if (!wasVisible) setAttribute(Qt::WA_DontShowOnScreen);
    resize(size);
    show();
    QApplication::processEvents();
    for (QCustomPlot* plot : {coordPlot_, rankPlot_, shardPlot_}) plot->replot();
    QImage image = grab().toImage();
    if (!wasVisible) hide();
    return image;
}

}  // namespace hsdp
