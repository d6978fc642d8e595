// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QPointF>
#include <QPointer>
#include <QSharedPointer>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

#include "derived/plan/sorted_distribution.h"

class QCPAbstractItem;
class QCPAxisTicker;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QPoint;
class QWidget;

namespace hsdp {

struct Scenario;

// tooManyForBars at `plot`'s width (kUnlaidPlotWidth before its first layout).
bool wantsDistribution(size_t bars, const QWidget& plot);
// "rank 70123 (3,12,5)": with its coordinate in the first mesh that holds it.
QString rankEntryName(const Scenario* scenario, int rank);

// One quantity over a chart's entries (coordinates, ranks): one value each.
struct DistributionSeries {
    QString name;  // said before its figures when a chart has several; else unused
    QColor color;
    std::vector<double> values;
    // Sorted already (off the GUI thread, e.g. PlanIndex's per-rank loads):
    // then `values` is not read.
    std::shared_ptr<const SortedDistribution> sorted;
};

// How a chart speaks of its entries and values.
struct DistributionText {
    QString entries;                              // plural: "coordinates", "ranks"
    std::function<QString(int entry)> entryName;  // as the bar's tick would name it
    std::function<QString(double value)> valueText;
    bool meanLines = true;  // false: the chart draws its mean itself
};

// What a click on the curves picks: a series and the entry drawn there.
struct DistributionPick {
    int series = -1;
    int entry = -1;
    bool isValid() const { return entry >= 0; }
};

// A chart's entries as a distribution, for when bars would be slivers
// (tooManyForBars): each series' values sorted ascending as a curve (x: the
// share of entries at or below, in %), filled when alone; p50, p90 and p99
// marked on the axis and dotted on every curve with the max; each series'
// mean as a dashed line; the worst entries named; and a subtitle under the
// title saying that this is a distribution and why, with the figures. It
// draws on a plot the chart's bars stay on (empty meanwhile); hide() gives
// the plot back as it was: its x ticker, label and layout rows.
class DistributionChart {
public:
    static constexpr int kWorstNamed = 3;  // named of a chart of one series; one each of several

    // `titleRow`: the plot layout row of the chart's title; the subtitle goes under it.
    explicit DistributionChart(QCustomPlot* plot, int titleRow = 0);
    DistributionChart(const DistributionChart&) = delete;
    DistributionChart& operator=(const DistributionChart&) = delete;

    void show(std::vector<DistributionSeries> series, const DistributionText& text);
    void hide();
    bool isShown() const { return shown_; }
    // After a layout: the subtitle wrapped to the plot's width; true when that changed it.
    bool fit();

    // The entry under `pos` (pixels): the column's sorted position on the
    // curve nearest vertically. Invalid outside the axis rect.
    DistributionPick pickAt(const QPoint& pos) const;
    QPointF pointOf(size_t series, int entry) const;  // where `entry` is drawn, plot coords
    // Rings `entry` on every curve (the picked coordinate or rank); -1: none.
    void markEntry(int entry);

    size_t seriesCount() const { return series_.size(); }
    const SortedDistribution& distribution(size_t series) const { return *series_[series].sorted; }
    std::vector<int> worst(size_t series) const;  // the entries named, worst first
    QCPGraph* curve(size_t series) const;
    QString subtitle() const;  // as shown, lines joined by '\n'
    double top() const;        // the largest value of any series

private:
    struct Drawn {
        std::shared_ptr<const SortedDistribution> sorted;  // never null
        QPointer<QCPGraph> curve, dots, mean, mark;
    };
    void clear();
    void addCurve(Drawn& drawn, const DistributionSeries& series, bool fill);
    void addMarkers();
    void addMaxLabel(const DistributionText& text);
    QStringList figureLines(const std::vector<DistributionSeries>& series,
                            const DistributionText& text) const;
    void installAxis(const DistributionText& text);

    QCustomPlot* plot_;
    int titleRow_;
    bool shown_ = false;
    std::vector<Drawn> series_;
    std::vector<QPointer<QCPAbstractItem>> items_;
    QPointer<QCPTextElement> subtitle_;
    QStringList lines_;  // the subtitle's lines before wrapping
    int wrappedFor_ = -1;
    QSharedPointer<QCPAxisTicker> barTicker_;  // the x axis as the bars had it
    QString barLabel_;
    double barRotation_ = 0;
    int barMinHeight_ = 0;
};

}  // namespace hsdp
