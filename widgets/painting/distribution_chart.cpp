// SPDX-License-Identifier: Apache-2.0
#include "painting/distribution_chart.h"

#include <qcustomplot.h>

#include <algorithm>

#include "types/figures.h"
#include "types/scenario.h"

namespace hsdp {

namespace {

constexpr double kMarked[] = {50, 90, 99};  // the percentiles drawn on the axis
const QColor kMarkerColor(0x77, 0x77, 0x77);
const QColor kPickColor(0x11, 0x11, 0x11);  // the bars' picked outline
// A monotone curve needs no more points than pixels: past this many it is
// sampled evenly (the max always kept), which keeps a 131,072-rank plot cheap.
constexpr size_t kMaxCurvePoints = 4096;

QString grouped(size_t count) {
    return QString::fromStdString(groupedCount(static_cast<int64_t>(count)));
}

// Greedy: the " · " parts of each line packed into lines of at most `width`
// px; a part wider than that alone is broken between its words.
QStringList wrapped(const QStringList& lines, const QFontMetrics& metrics, int width) {
    QStringList out;
    auto pack = [&](const QStringList& pieces, const QString& sep) {
        QString current;
        for (const QString& piece : pieces) {
            const QString longer = current.isEmpty() ? piece : current + sep + piece;
            if (!current.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                out << current;
                current = piece;
            } else {
                current = longer;
            }
        }
        return current;
    };
    for (const QString& line : lines) {
        QStringList parts;
        for (const QString& part : line.split(QStringLiteral(" · "))) {
            if (metrics.horizontalAdvance(part) <= width) {
                parts << part;
                continue;
            }
            if (!parts.isEmpty()) out << pack(parts, QStringLiteral(" · "));
            parts = QStringList{pack(part.split(QLatin1Char(' ')), QStringLiteral(" "))};
        }
        out << pack(parts, QStringLiteral(" · "));
    }
    return out;
}

QCPGraph* scatter(QCustomPlot* plot, const QCPScatterStyle& style) {
    QCPGraph* graph = plot->addGraph();
    graph->removeFromLegend();
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    graph->setSelectable(QCP::stNone);
    return graph;
}

}  // namespace

bool wantsDistribution(size_t bars, const QWidget& plot) {
    // A widget a layout has not sized yet has no width of its own.
    return tooManyForBars(bars,
                          plot.testAttribute(Qt::WA_Resized) ? plot.width() : kUnlaidPlotWidth);
}

QString rankEntryName(const Scenario* scenario, int rank) {
    if (scenario)
        for (const Mesh& mesh : scenario->meshes)
            if (auto coord = mesh.coordinateOf(rank)) {
                QStringList parts;
                for (int64_t c : *coord) parts << QString::number(c);
                return QObject::tr("rank %1 (%2)").arg(rank).arg(parts.join(QLatin1Char(',')));
            }
    return QObject::tr("rank %1").arg(rank);
}

DistributionChart::DistributionChart(QCustomPlot* plot, int titleRow)
    : plot_(plot), titleRow_(titleRow) {}

void DistributionChart::show(std::vector<DistributionSeries> series, const DistributionText& text) {
    if (!shown_) {  // keep the bars' axis for hide()
        barTicker_ = plot_->xAxis->ticker();
        barLabel_ = plot_->xAxis->label();
        barRotation_ = plot_->xAxis->tickLabelRotation();
        barMinHeight_ = plot_->minimumHeight();
    }
    clear();
    shown_ = true;
    for (const DistributionSeries& one : series) {
        series_.push_back(
            {one.sorted ? one.sorted : std::make_shared<const SortedDistribution>(one.values),
             {},
             {},
             {},
             {}});
        addCurve(series_.back(), one, series.size() == 1);
        if (!text.meanLines) series_.back().mean->setVisible(false);
    }
    if (series_.empty() || series_.front().sorted->empty()) return;
    addMarkers();
    addMaxLabel(text);
    lines_ = QStringList{QObject::tr("%1 %2: sorted distribution (too many for bars at this width)")
                             .arg(grouped(series_.front().sorted->size()), text.entries)} +
             figureLines(series, text);
    subtitle_ = new QCPTextElement(plot_, QString(), QFont(plot_->font().family(), 8));
    subtitle_->setTextColor(QColor(0x55, 0x55, 0x55));
    plot_->plotLayout()->insertRow(titleRow_ + 1);
    plot_->plotLayout()->addElement(titleRow_ + 1, 0, subtitle_);
    wrappedFor_ = -1;
    fit();
    installAxis(text);
}

void DistributionChart::addCurve(Drawn& drawn, const DistributionSeries& series, bool fill) {
    const SortedDistribution& sorted = *drawn.sorted;
    const size_t n = sorted.size();
    const size_t points = std::min(n, kMaxCurvePoints);
    QVector<double> keys, values;
    for (size_t j = 0; j < points; ++j) {
        const size_t k = points == 1 ? 0 : j * (n - 1) / (points - 1);
        keys << sorted.shareAt(k);
        values << sorted.sorted()[k];
    }
    drawn.curve = plot_->addGraph();
    drawn.curve->removeFromLegend();
    drawn.curve->setLayer(QStringLiteral("grid"));  // under the chart's own lines
    drawn.curve->setPen(QPen(series.color.darker(115), 1.6));
    if (fill)
        drawn.curve->setBrush(
            QColor(series.color.red(), series.color.green(), series.color.blue(), 70));
    drawn.curve->setSelectable(QCP::stNone);
    drawn.curve->setData(keys, values, true);
    drawn.mean = plot_->addGraph();
    drawn.mean->removeFromLegend();
    drawn.mean->setPen(QPen(series.color.darker(150), 1.2, Qt::DashLine));
    drawn.mean->setSelectable(QCP::stNone);
    drawn.mean->setData({0, 100}, {sorted.mean(), sorted.mean()});
    drawn.dots = scatter(plot_, QCPScatterStyle(QCPScatterStyle::ssDisc, series.color.darker(150),
                                                series.color.darker(150), 6));
    for (double p : kMarked)
        drawn.dots->addData(sorted.shareAt(sorted.percentilePosition(p)), sorted.percentile(p));
    drawn.dots->addData(100, sorted.max());
    drawn.mark = scatter(
        plot_, QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kPickColor, 2), Qt::NoBrush, 11));
}

// p50, p90 and p99 as dotted verticals, named at their foot.
void DistributionChart::addMarkers() {
    for (double p : kMarked) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setPen(QPen(kMarkerColor, 1, Qt::DotLine));
        line->setSelectable(false);
        line->point1->setCoords(p, 0);
        line->point2->setCoords(p, 1);
        items_.push_back(line);
        auto* label = new QCPItemText(plot_);
        label->position->setAxisRect(plot_->axisRect());
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(p, 1);
        // Left of its line, so p99 never runs off the right edge.
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setPadding(QMargins(2, 0, 3, 1));
        label->setColor(kMarkerColor.darker(130));
        label->setFont(QFont(plot_->font().family(), 7));
        label->setText(QStringLiteral("p%1").arg(p));
        label->setSelectable(false);
        items_.push_back(label);
    }
}

// The worst entry of a single series named at its point, at the curve's end.
void DistributionChart::addMaxLabel(const DistributionText& text) {
    if (series_.size() != 1 || !text.entryName) return;
    const SortedDistribution& sorted = *series_.front().sorted;
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(100, sorted.max());
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setPadding(QMargins(2, 0, 4, 2));
    label->setFont(QFont(plot_->font().family(), 8));
    label->setText(QObject::tr("max %1").arg(text.entryName(worst(0).front())));
    label->setSelectable(false);
    items_.push_back(label);
}

// Each series' percentiles, max and mean; the worst entries by name.
QStringList DistributionChart::figureLines(const std::vector<DistributionSeries>& series,
                                           const DistributionText& text) const {
    auto value = [&](double v) { return text.valueText ? text.valueText(v) : QString::number(v); };
    auto name = [&](int entry) {
        return text.entryName ? text.entryName(entry) : QString::number(entry);
    };
    QStringList lines;
    const bool several = series_.size() > 1;
    for (size_t s = 0; s < series_.size(); ++s) {
        const SortedDistribution& sorted = *series_[s].sorted;
        QStringList parts;
        for (double p : kMarked)
            parts << QStringLiteral("p%1 %2").arg(p).arg(value(sorted.percentile(p)));
        parts << QObject::tr("max %1").arg(value(sorted.max()));
        if (several) parts.back() += QStringLiteral(" (%1)").arg(name(worst(s).front()));
        parts << QObject::tr("mean %1").arg(value(sorted.mean()));
        lines << (several ? series[s].name + QStringLiteral(": ") : QString()) +
                     parts.join(QStringLiteral(" · "));
    }
    if (!several) {
        QStringList worstParts;
        for (int entry : worst(0))
            worstParts << QStringLiteral("%1 %2").arg(
                name(entry),
                value(series_[0].sorted->sorted()[series_[0].sorted->positionOf(entry)]));
        lines << QObject::tr("worst: ") + worstParts.join(QStringLiteral(" · "));
    }
    return lines;
}

void DistributionChart::installAxis(const DistributionText& text) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int share : {0, 25, 50, 75, 100}) ticker->addTick(share, QStringLiteral("%1%").arg(share));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(0);
    plot_->xAxis->setLabel(QObject::tr("%1 sorted by value: share at or below").arg(text.entries));
    plot_->xAxis->setRange(0, 100);
    const double upper = top();
    plot_->yAxis->setRange(0, upper > 0 ? upper * 1.15 : 1.0);
}

bool DistributionChart::fit() {
    if (!shown_ || !subtitle_ || plot_->width() == wrappedFor_) return false;
    wrappedFor_ = plot_->width();
    const QString text = wrapped(lines_, QFontMetrics(subtitle_->font()), plot_->width() - 12)
                             .join(QLatin1Char('\n'));
    if (text == subtitle_->text()) return false;
    subtitle_->setText(text);
    // The subtitle's lines come on top of the room the bars had.
    plot_->setMinimumHeight(barMinHeight_ + static_cast<int>(text.count(QLatin1Char('\n')) + 1) *
                                                QFontMetrics(subtitle_->font()).lineSpacing());
    return true;
}

void DistributionChart::clear() {
    for (Drawn& drawn : series_)
        for (QCPGraph* graph :
             {drawn.curve.data(), drawn.dots.data(), drawn.mean.data(), drawn.mark.data()})
            if (graph) plot_->removeGraph(graph);
    series_.clear();
    for (const QPointer<QCPAbstractItem>& item : items_)
        if (item) plot_->removeItem(item.data());
    items_.clear();
    if (subtitle_) {
        plot_->plotLayout()->remove(subtitle_.data());
        plot_->plotLayout()->simplify();  // the emptied row goes
    }
    lines_.clear();
}

void DistributionChart::hide() {
    if (!shown_) return;
    clear();
    shown_ = false;
    plot_->xAxis->setTicker(barTicker_);
    plot_->xAxis->setLabel(barLabel_);
    plot_->xAxis->setTickLabelRotation(barRotation_);
    plot_->setMinimumHeight(barMinHeight_);
}

DistributionPick DistributionChart::pickAt(const QPoint& pos) const {
    // The right edge is x = 100 %: where the max is drawn, so it counts.
    if (!shown_ || !plot_->axisRect()->rect().adjusted(0, 0, 1, 1).contains(pos)) return {};
    const double share = std::clamp(plot_->xAxis->pixelToCoord(pos.x()), 0.0, 100.0);
    DistributionPick pick;
    double nearest = 0;
    for (size_t s = 0; s < series_.size(); ++s) {
        const SortedDistribution& sorted = *series_[s].sorted;
        if (sorted.empty()) continue;
        const size_t position = sorted.positionAt(share);
        const double distance =
            std::abs(plot_->yAxis->coordToPixel(sorted.sorted()[position]) - pos.y());
        if (pick.isValid() && distance >= nearest) continue;
        pick = {static_cast<int>(s), sorted.entryAt(position)};
        nearest = distance;
    }
    return pick;
}

QPointF DistributionChart::pointOf(size_t series, int entry) const {
    const SortedDistribution& sorted = *series_[series].sorted;
    const size_t position = sorted.positionOf(entry);
    return {sorted.shareAt(position), sorted.sorted()[position]};
}

void DistributionChart::markEntry(int entry) {
    for (size_t s = 0; s < series_.size(); ++s) {
        if (!series_[s].mark) continue;
        series_[s].mark->data()->clear();
        if (entry >= 0 && static_cast<size_t>(entry) < series_[s].sorted->size()) {
            const QPointF point = pointOf(s, entry);
            series_[s].mark->addData(point.x(), point.y());
        }
    }
}

std::vector<int> DistributionChart::worst(size_t series) const {
    return series_[series].sorted->worst(series_.size() > 1 ? 1 : kWorstNamed);
}

QCPGraph* DistributionChart::curve(size_t series) const {
    return series_[series].curve.data();
}

QString DistributionChart::subtitle() const {
    return subtitle_ ? subtitle_->text() : QString();
}

double DistributionChart::top() const {
    double top = 0;
    for (const Drawn& drawn : series_) top = std::max(top, drawn.sorted->max());
    return top;
}

}  // namespace hsdp
