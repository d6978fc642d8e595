// SPDX-License-Identifier: Apache-2.0
#include "memory/memory_widget.h"

#include <algorithm>

#include <qcustomplot.h>

#include "cost/plan_cost.h"
#include "derived/run/plan_prediction.h"
#include "types/figures.h"
#include "view/offscreen_grab.h"
#include "view/plot_picture.h"

namespace hsdp {

namespace {

// One colour per MemoryKind: the resident shards in greys and blues, the
// step's transient buffers in warm colours.
const std::array<QColor, kMemoryKinds> kKindColors = {
    QColor(0x4c, 0x78, 0xa8), QColor(0x9d, 0xb4, 0xd0), QColor(0xb0, 0xb8, 0xc4),
    QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59), QColor(0xb0, 0x7a, 0xa1),
    QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48), QColor(0x76, 0xb7, 0xb2)};
const QColor kCapacityColor(0x22, 0x22, 0x22);
// The entries chart's bars are a total of every kind: a colour no kind has
// (in a kind's colour they read as that buffer, a gather buffer in a plan
// that has none).
const QColor kEntryPeakColor(0x6b, 0x72, 0x80);

// Byte ticks as the rest of the studio writes sizes ("60.0 GiB"), a round
// number of the unit apart (1, 2, 2.5 or 5 times a power of ten of KiB,
// MiB, GiB, ...): steps picked in plain bytes (2.5e10) read 23.3, 46.6 GiB.
class ByteTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override {
        double unit = 1;
        while (unit * 1024 <= range.upper) unit *= 1024;
        return cleanMantissa(range.size() / unit / (tickCount() + 1e-10)) * unit;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::fromStdString(humanBytes(tick));
    }
};

QCPBars* makeBars(QCustomPlot* plot, const QColor& color, const QString& name) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.8);
    return bars;
}

int barAt(QCustomPlot* plot, const QPoint& pos, int count) {
    const int key = int(std::lround(plot->xAxis->pixelToCoord(pos.x())));
    return key >= 0 && key < count ? key : -1;
}

}  // namespace

MemoryWidget::MemoryWidget(PlanSelection* selection, QWidget* parent)
    : QWidget(parent), selection_(selection), message_(new QLabel(this)) {
    rankPlot_ = makePlot(&rankTitle_);
    entryPlot_ = makePlot(&entryTitle_);
    // A short bottom dock scrolls (ViewPlace::BottomScrolled) rather than
    // squeezing the bars under the legend.
    rankPlot_->setMinimumHeight(260);
    entryPlot_->setMinimumHeight(180);
    for (int k = kMemoryKinds - 1; k >= 0; --k) {
        const auto kind = MemoryKind(k);
        kindBars_[size_t(k)] = makeBars(rankPlot_, kKindColors[size_t(k)], memoryKindLabel(kind));
    }
    // Stacked bottom-up in kind order: the resident shards at the bottom.
    for (int k = 1; k < kMemoryKinds; ++k)
        kindBars_[size_t(k)]->moveAbove(kindBars_[size_t(k - 1)]);
    rankPlot_->legend->setVisible(true);
    rankPlot_->legend->setFont(QFont(font().family(), 8));
    // No frame: the column ends at the plot's edge, where a frame's right and
    // bottom lines fall one pixel outside the picture (it looked cut there).
    rankPlot_->legend->setBorderPen(Qt::NoPen);
    // Right of the bars, not over them (inside, it hid the last ranks'
    // bars): the axis rect and the legend share the title's row's width.
    QCPAxisRect* bars = rankPlot_->axisRect();
    bars->insetLayout()->take(rankPlot_->legend);
    rankPlot_->plotLayout()->take(bars);
    chartRow_ = new QCPLayoutGrid;
    rankPlot_->plotLayout()->addElement(1, 0, chartRow_);
    chartRow_->addElement(0, 0, bars);
    showLegend(true);
    capacity_ = new QCPItemStraightLine(rankPlot_);
    capacity_->setPen(QPen(kCapacityColor, 1.5, Qt::DashLine));
    entryBars_ = makeBars(entryPlot_, kEntryPeakColor, tr("peak"));
    message_->setWordWrap(true);
    message_->setMargin(8);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(message_);
    layout->addWidget(rankPlot_, 3);
    layout->addWidget(entryPlot_, 2);
    connect(selection_, &PlanSelection::changed, this, &MemoryWidget::onSelectionChanged);
    rankDist_ = std::make_unique<DistributionChart>(rankPlot_);
    connect(rankPlot_, &QCustomPlot::mouseRelease, this,
            [this](QMouseEvent* event) { onRankPlotClicked(event->pos()); });
    connect(rankPlot_, &QCustomPlot::afterLayout, this, &MemoryWidget::onRankPlotLaidOut);
    // Upright entry names may take a fifth of the plot's height, no more.
    connect(entryPlot_, &QCustomPlot::afterLayout, this, [this] {
        if (entryTicks_.fit(entryPlot_->xAxis, entryPlot_->height() / 5))
            entryPlot_->replot(QCustomPlot::rpQueuedReplot);
    });
    setResult({});
}

QCustomPlot* MemoryWidget::makePlot(QCPTextElement** title) {
    auto* plot = new QCustomPlot(this);
    plot->setMinimumHeight(120);
    plot->plotLayout()->insertRow(0);
    *title = new QCPTextElement(plot, QString(), QFont(font().family(), 9, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, *title);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteTicker));
    plot->xAxis->grid()->setVisible(false);
    plot->setAutoAddPlottableToLegend(true);
    return plot;
}

void MemoryWidget::setResult(const PlanResult& result) {
    result_ = result;
    const PlanPrediction* prediction = result_.prediction.get();
    chart_ = prediction && prediction->cost ? memoryChart(*prediction->cost) : MemoryChart{};
    message_->setText(message());
    message_->setVisible(!message_->text().isEmpty());
    rankPlot_->setVisible(!chart_.ranks.isEmpty());
    entryPlot_->setVisible(!chart_.ranks.isEmpty());
    fillRankPlot();
    onSelectionChanged();
}

QString MemoryWidget::message() const {
    if (!result_.isValid()) return tr("No plan.");
    if (!result_.prediction)
        return tr(
            "No prediction of this plan (yet): the Cluster menu chooses the cluster "
            "each rank's memory is predicted on.");
    if (!result_.prediction->cost) return tr("No prediction: %1").arg(result_.prediction->error);
    return {};
}

void MemoryWidget::onRankPlotClicked(const QPoint& pos) {
    const int bar = rankDist_->isShown() ? rankDist_->pickAt(pos).entry
                                         : barAt(rankPlot_, pos, int(chart_.ranks.size()));
    if (bar >= 0) selectRank(int(chart_.ranks[bar]));
}

// Bars or a distribution, as the width the layout gave asks.
void MemoryWidget::onRankPlotLaidOut() {
    const bool refill =
        !chart_.ranks.isEmpty() &&
        wantsDistribution(size_t(chart_.ranks.size()), *rankPlot_) != rankDist_->isShown();
    if (refill) {
        fillRankPlot();
        onSelectionChanged();
    }
    bool changed = refill || rankDist_->fit();
    // The bars' rank numbers, whole ranks only (the distribution has its own ticks).
    if (!rankDist_->isShown()) changed = rankTicks_.fit(rankPlot_->xAxis, 0) || changed;
    if (changed) rankPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void MemoryWidget::fillRankPlot() {
    if (!chart_.ranks.isEmpty() && wantsDistribution(size_t(chart_.ranks.size()), *rankPlot_))
        showRankDistribution();
    else
        fillRankBars();
}

// Each rank's peak (its kinds summed, as the bars stack), sorted.
void MemoryWidget::showRankDistribution() {
    for (QCPBars* bars : kindBars_) bars->data()->clear();
    showLegend(false);  // the kinds: not told apart here
    std::vector<double> peaks(size_t(chart_.ranks.size()), 0.0);
    for (const QVector<double>& kind : chart_.atPeak)
        for (qsizetype r = 0; r < kind.size(); ++r) peaks[size_t(r)] += kind[r];
    rankDist_->show(
        {{tr("peak"), kKindColors[size_t(MemoryKind::Param)], std::move(peaks), nullptr}},
        {tr("ranks"),
         [this](int entry) {
             return rankEntryName(result_.scenario.get(), int(chart_.ranks[entry]));
         },
         [](double bytes) { return QString::fromStdString(humanBytes(bytes)); }});
    rankTitle_->setText(rankTitleText());
    showCapacity();
    rankPlot_->xAxis->setLabel(
        tr("ranks sorted by peak: share at or below%1").arg(capacityNote(QStringLiteral(" "))));
    rankPlot_->yAxis->setRange(
        0,
        std::max(rankDist_->top(), chart_.capacityOnScale() ? chart_.capacityBytes : 0.0) * 1.15);
    rankPlot_->replot();
}

// The optimizer step's peak, said as such: the forward and backward passes
// and their activations come on top (a new user took it for the job's;
// docs/cost-model.md says so at length).
QString MemoryWidget::rankTitleText() const {
    // Short: a QCPTextElement title is as wide as its text, and a wider
    // plot drew bars where the distribution belongs.
    const PlanCost& cost = *result_.prediction->cost;
    const QString title =
        tr("Predicted optimizer-step peak per rank (no activations) on %1, real "
           "shapes: highest %2 (rank %3)")
            .arg(clusterText(cost), QString::fromStdString(humanBytes(chart_.peakBytes)))
            .arg(chart_.peakRank);
    // Bars past the device's line are a step that cannot run: said in words
    // too, on a line of its own above (a title too wide for a picture is cut
    // at both ends, and the verdict at its end was lost).
    return cost.memoryFit.fits()
               ? title
               : tr("Does not fit: %1 over the device's %2")
                         .arg(
                             QString::fromStdString(humanBytes(double(cost.memoryFit.overBytes()))),
                             QString::fromStdString(
                                 humanBytes(double(cost.memoryFit.deviceBytes)))) +
                     QLatin1Char('\n') + title;
}

void MemoryWidget::fillRankBars() {
    rankDist_->hide();
    showLegend(true);
    for (int k = 0; k < kMemoryKinds; ++k)
        kindBars_[size_t(k)]->setData(chart_.ranks, chart_.atPeak[size_t(k)], true);
    // The legend names the kinds that draw something: a kind at zero bytes on
    // every rank shown has no bar to tell apart. Top of the stack first.
    rankPlot_->legend->clearItems();
    for (int k = kMemoryKinds - 1; k >= 0; --k) {
        const QVector<double>& bytes = chart_.atPeak[size_t(k)];
        if (std::any_of(bytes.begin(), bytes.end(), [](double b) { return b > 0; }))
            kindBars_[size_t(k)]->addToLegend();
    }
    QStringList rankNames;
    for (double rank : chart_.ranks) rankNames << QString::number(qint64(rank));
    rankTicks_.setLabels(chart_.ranks, rankNames);
    if (chart_.ranks.isEmpty()) return;
    rankTitle_->setText(rankTitleText());
    const double top =
        std::max(chart_.peakBytes, chart_.capacityOnScale() ? chart_.capacityBytes : 0.0);
    showCapacity();
    rankPlot_->xAxis->setRange(-0.6, double(chart_.ranks.size()) - 0.4);
    rankPlot_->yAxis->setRange(0, top * 1.08);
    rankPlot_->xAxis->setLabel(tr("rank%1").arg(capacityNote(QStringLiteral(" "))));
    rankPlot_->replot();
}

// The legend's column holds it while shown; hidden, it gives the bars the room.
void MemoryWidget::showLegend(bool shown) {
    QCPLegend* legend = rankPlot_->legend;
    const bool placed = chartRow_->hasElement(0, 1);
    if (shown && !placed) {
        chartRow_->addElement(0, 1, legend);
        chartRow_->setColumnStretchFactor(1, 0.001);
    } else if (!shown && placed) {
        chartRow_->take(legend);
        chartRow_->simplify();
    }
    legend->setVisible(shown);
}

// What the rank chart's axis says of the device's capacity, after `gap`:
// where its dashed line is, or that it is far above the peaks ("" without one).
QString MemoryWidget::capacityNote(const QString& gap) const {
    if (chart_.capacityBytes <= 0) return {};
    const QString capacity = QString::fromStdString(humanBytes(chart_.capacityBytes));
    if (chart_.capacityOnScale()) return gap + tr("(dashed: the device's %1)").arg(capacity);
    const auto times =
        int64_t(std::llround(chart_.capacityBytes / std::max(chart_.peakBytes, 1.0)));
    return gap + tr("(the device's %1 is off this scale: %2 times the highest peak)")
                     .arg(capacity, QString::fromStdString(groupedCount(times)));
}

void MemoryWidget::showCapacity() {
    capacity_->setVisible(chart_.capacityOnScale());
    capacity_->point1->setCoords(0, chart_.capacityBytes);
    capacity_->point2->setCoords(1, chart_.capacityBytes);
    capacity_->setSelectable(false);
}

void MemoryWidget::onSelectionChanged() {
    const std::vector<int> picked = selection_->ranks();
    shownRank_ = picked.size() == 1 ? picked.front() : chart_.peakRank;
    if (rankDist_->isShown()) {  // the picked rank ringed on the curve
        const qsizetype entry =
            picked.size() == 1 ? chart_.ranks.indexOf(double(picked.front())) : -1;
        rankDist_->markEntry(int(entry));
        rankPlot_->replot();
    }
    fillEntryPlot();
}

void MemoryWidget::fillEntryPlot() {
    if (chart_.ranks.isEmpty() || shownRank_ < 0 || shownRank_ >= chart_.ranks.size()) {
        entryBars_->data()->clear();
        entryTicks_.setLabels({}, {});
        entryPlot_->replot();
        return;
    }
    const EntryMemorySeries series = entryMemory(*result_.prediction->cost, shownRank_);
    entryBars_->setData(series.keys, series.bytes, true);
    entryTicks_.setLabels(series.keys, QStringList(series.names.begin(), series.names.end()));
    entryTitle_->setText(
        tr("Rank %1: high-water mark in each schedule entry it takes part in").arg(shownRank_));
    double top = 0;
    for (double b : series.bytes) top = std::max(top, b);
    entryPlot_->xAxis->setRange(-0.6, double(series.keys.size()) - 0.4);
    entryPlot_->yAxis->setRange(0, std::max(top, 1.0) * 1.08);
    entryPlot_->xAxis->setLabel(tr("schedule entry, in step order"));
    entryPlot_->replot();
}

void MemoryWidget::selectRank(int rank) {
    selection_->selectRanks({rank});
}

QList<ViewShot> MemoryWidget::screenshots() const {
    if (chart_.ranks.isEmpty()) return {};
    return {ViewShot{{}, QSize(1200, 800), {}}};
}

QImage MemoryWidget::renderImage(const QSize& size) {
    return grabOffscreen(*this, size, [this] {
        // Twice: the first layout may turn the bars into a distribution.
        for (int pass = 0; pass < 2; ++pass) {
            rankPlot_->replot();
            entryPlot_->replot();
        }
    });
}

void MemoryWidget::paintPicture(QPaintDevice& target, const QSize& size, const QString& part) {
    paintPlotPicture(part == QLatin1String("entries") ? *entryPlot_ : *rankPlot_, target, size);
}

}  // namespace hsdp
