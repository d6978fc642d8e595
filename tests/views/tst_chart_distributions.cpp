// SPDX-License-Identifier: Apache-2.0
// Charts with more bars than their width shows (tooManyForBars) as sorted
// distributions: on a 512-rank plan (16x16x2 mesh, 256 owner coordinates)
// at a narrow width, the owner balance view's three charts and the Memory
// view's per-rank chart are distributions and say so; their percentiles
// (nearest rank) and means equal those computed here from the plan's loads,
// Plan::ranks and the cost model's peaks; the entries they name are the
// true worst; a real click on the curve selects the ranks of the entry drawn
// in that pixel column; at a width with room for the bars, bars come back.
#include <qcustomplot.h>

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "cluster/reader.h"
#include "cost/plan_cost.h"
#include "derived/run/plan_prediction.h"
#include "memory/memory_widget.h"
#include "owner_balance/owner_balance_widget.h"
#include "painting/heat_scale.h"
#include "types/figures.h"

using namespace hsdp;

namespace {

// 16x16 replicate coordinates of 2 shards, 40 layers of unequal matrices:
// owner loads that differ from coordinate to coordinate.
const char* kScenario = R"json({
 "format": "hsdp-scenario/1",
 "name": "512 ranks",
 "mesh": {"shape": [16, 16, 2], "dim_names": ["dp_outer", "dp_replicate", "dp_shard"]},
 "params": [
  {"repeat": 40, "var": "i", "params": [
   {"name": "l{i}.wq", "shape": [512, 512], "dtype": "bf16", "placements": ["R", "R", "S(0)"]},
   {"name": "l{i}.wk", "shape": [128, 512], "dtype": "bf16", "placements": ["R", "R", "S(0)"]},
   {"name": "l{i}.wo", "shape": [512, 512], "dtype": "bf16", "placements": ["R", "R", "S(1)"]},
   {"name": "l{i}.gate", "shape": [8, 512], "dtype": "f32", "placements": ["R", "R", "R"]},
   {"repeat": 4, "var": "e", "params": [
    {"name": "l{i}.e{e}.w1", "shape": [352, 512], "dtype": "bf16", "placements": ["R", "R", "S(0)"]},
    {"name": "l{i}.e{e}.w2", "shape": [512, 352], "dtype": "bf16", "placements": ["R", "R", "S(1)"]}
   ]}
  ]}
 ]
})json";

const QSize kNarrow(420, 900);  // 256 coordinates need 512 px for bars
const QSize kWide(1400, 900);

// Values sorted as the chart should: ascending, equal values in entry order.
std::vector<int> ascending(const std::vector<double>& values) {
    std::vector<int> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return values[size_t(a)] < values[size_t(b)]; });
    return order;
}

// Nearest rank: the smallest value with at least p% of the values at or below it.
double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    size_t rank = 0;
    while (double(rank) * 100.0 < p * double(values.size())) ++rank;
    return values[std::max<size_t>(rank, 1) - 1];
}

// Each series' p50, p90, p99, max and mean as the chart holds them, and the
// named entries are the `named` highest (by value; ties may go either way).
void checkFigures(const DistributionChart& chart, size_t series, const std::vector<double>& values,
                  size_t named, const std::function<QString(double)>& text = humanCount) {
    const SortedDistribution& shown = chart.distribution(series);
    QCOMPARE(shown.size(), values.size());
    for (double p : {50.0, 90.0, 99.0}) QCOMPARE(shown.percentile(p), percentile(values, p));
    QCOMPARE(shown.max(), *std::max_element(values.begin(), values.end()));
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    QVERIFY(std::abs(shown.mean() - mean) <= 1e-9 * std::max(1.0, mean));
    std::vector<double> top = values;
    std::sort(top.rbegin(), top.rend());
    const std::vector<int> worst = chart.worst(series);
    QCOMPARE(worst.size(), named);
    for (size_t i = 0; i < worst.size(); ++i) QCOMPARE(values[size_t(worst[i])], top[i]);
    const QString said = chart.subtitle().simplified();  // wrapped lines joined
    for (double p : {50.0, 90.0, 99.0})
        QVERIFY2(said.contains(QStringLiteral("p%1 %2").arg(p).arg(text(percentile(values, p)))),
                 qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("max %1").arg(text(top.front()))), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("mean %1").arg(text(mean))), qPrintable(said));
}

// The form and its reason, under the title.
void checkSaysSo(const DistributionChart& chart, const QString& entries, size_t count) {
    QVERIFY(chart.isShown());
    const QString said = chart.subtitle().simplified();
    QVERIFY2(said.contains(QStringLiteral("%1 %2").arg(
                 QLocale(QLocale::English).toString(qlonglong(count)), entries)),
             qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("sorted distribution")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("too many for bars")), qPrintable(said));
}

// The pixel of the curve's point at sorted position `position` of `count`,
// at `value` (a little above the axis for none).
QPoint columnPixel(QCustomPlot* plot, size_t position, size_t count, double value) {
    const double share = 100.0 * double(position + 1) / double(count);
    const double bottom = plot->yAxis->coordToPixel(0) - 2;  // inside the axis rect
    return {int(std::lround(plot->xAxis->coordToPixel(share))),
            int(std::lround(std::min(plot->yAxis->coordToPixel(value), bottom)))};
}

size_t positionOfColumn(QCustomPlot* plot, int x, size_t count) {
    const double share = plot->xAxis->pixelToCoord(x);
    size_t rank = 0;
    while (rank < count && double(rank) * 100.0 < share * double(count) - 1e-6) ++rank;
    return std::max<size_t>(rank, 1) - 1;
}

// The global ranks at replicate coordinate `coord` of `group`, from each
// rank's row-major position in the group's mesh.
std::vector<int> ranksAt(const Group& group, const Coord& coord, std::optional<int64_t> count) {
    std::vector<int> ranks;
    for (size_t position = 0; position < group.meshRanks.size(); ++position) {
        Coord mesh(group.meshShape.size());
        size_t rest = position;
        for (size_t d = group.meshShape.size(); d-- > 0;) {
            mesh[d] = int64_t(rest % size_t(group.meshShape[d]));
            rest /= size_t(group.meshShape[d]);
        }
        Coord reduced;
        for (int d : group.replicateMeshDims)
            reduced.push_back(count ? mesh[size_t(d)] % *count : mesh[size_t(d)]);
        if (reduced == coord) ranks.push_back(group.meshRanks[position]);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

std::vector<double> barValues(QCPBars* bars) {
    std::vector<double> values;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

}  // namespace

class TestChartDistributions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theRuleIsBarsWhileEachGetsTwoPixels();
    void coordinatesAsADistribution();
    void ranksAsADistribution();
    void newtonSchulzAsADistribution();
    void wideEnoughKeepsTheBars();
    void memoryPeaksAsADistribution();

private:
    QTemporaryDir dir_;
    PlanResult plan_;
};

void TestChartDistributions::initTestCase() {
    QFile file(dir_.filePath(QStringLiteral("ranks512.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(kScenario);
    file.close();
    plan_ = computePlanResult(file.fileName());
    QVERIFY(plan_.isValid());
    QCOMPARE(plan_.plan->ranks.size(), size_t(512));
}

void TestChartDistributions::theRuleIsBarsWhileEachGetsTwoPixels() {
    QVERIFY(!tooManyForBars(300, 600));
    QVERIFY(tooManyForBars(301, 600));
    QVERIFY(tooManyForBars(1, 0));
    QVERIFY(!tooManyForBars(0, 0));
}

void TestChartDistributions::coordinatesAsADistribution() {
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(plan_);
    view.renderImage(kNarrow);
    const auto& coords = view.balance().coords;
    QVERIFY(coords.size() >= 256);
    QVERIFY(tooManyForBars(coords.size(), view.coordPlot()->width()));
    const DistributionChart& chart = view.coordDistribution();
    checkSaysSo(chart, QStringLiteral("coordinates"), coords.size());
    QVERIFY(view.coordBars()->data()->isEmpty());  // no slivers behind the curve
    const BatchRef shown = view.shownBatch();
    const Group& group = plan_.plan->groups[size_t(shown.group)];
    const Batch& batch = group.batches[size_t(shown.batch)];
    std::vector<double> loads;
    for (int64_t load : batch.loads) loads.push_back(double(load));
    checkFigures(chart, 0, loads, DistributionChart::kWorstNamed);
    // The worst coordinates by the names their bars' ticks had.
    for (int entry : chart.worst(0)) {
        QStringList parts;
        for (int64_t c : coords[size_t(entry)]) parts << QString::number(c);
        QVERIFY2(chart.subtitle().contains(QStringLiteral("(%1)").arg(parts.join(','))),
                 qPrintable(chart.subtitle()));
    }
    // The bound and mean lines span the curve, at the plan's figures.
    int64_t total = 0, largest = 0;
    for (int p : batch.params) {
        total += plan_.scenario->params[size_t(p)].numel();
        largest = std::max(largest, plan_.scenario->params[size_t(p)].numel());
    }
    const double mean = double(total) / double(coords.size());
    QCOMPARE(view.meanLine()->data()->at(0)->value, mean);
    QCOMPARE(view.lowerBoundLine()->data()->at(0)->value, std::max(double(largest), mean));
    // A real click in the columns of the median and of the max.
    const std::vector<int> order = ascending(loads);
    for (size_t position : {loads.size() / 2, loads.size() - 1}) {
        QCustomPlot* plot = view.coordPlot();
        const QPoint pixel =
            columnPixel(plot, position, loads.size(), loads[size_t(order[position])] / 2);
        const int entry = order[positionOfColumn(plot, pixel.x(), loads.size())];
        selection.clear();
        QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);
        QCOMPARE(selection.ranks(),
                 ranksAt(group, coords[size_t(entry)], plan_.plan->effectiveReplicaCount));
        QCOMPARE(view.pickedCoordinate(), entry);
    }
}

void TestChartDistributions::ranksAsADistribution() {
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(plan_);
    view.renderImage(kNarrow);
    const DistributionChart& chart = view.rankDistribution();
    checkSaysSo(chart, QStringLiteral("ranks"), plan_.plan->ranks.size());
    QVERIFY(view.heldBars()->data()->isEmpty());
    QVERIFY(view.computedBars()->data()->isEmpty());
    std::vector<std::vector<double>> series(3);
    for (const RankOwnership& rank : plan_.plan->ranks) {
        series[0].push_back(double(rank.heldNumel));
        series[1].push_back(double(rank.gatheredNumel));
        series[2].push_back(double(rank.computedNumel));
    }
    QCOMPARE(chart.seriesCount(), size_t(3));
    for (size_t s = 0; s < 3; ++s) {
        checkFigures(chart, s, series[s], 1);
        const int worst = plan_.plan->ranks[size_t(chart.worst(s).front())].rank;
        QVERIFY2(chart.subtitle().contains(QStringLiteral("rank %1 (").arg(worst)),
                 qPrintable(chart.subtitle()));
    }
    // A click on the highest curve's last point selects the rank drawn there.
    size_t highest = 0;
    for (size_t s = 1; s < 3; ++s)
        if (chart.distribution(s).max() > chart.distribution(highest).max()) highest = s;
    const std::vector<int> order = ascending(series[highest]);
    QCustomPlot* plot = view.rankPlot();
    const size_t n = order.size();
    const QPoint pixel = columnPixel(plot, n - 1, n, series[highest][size_t(order[n - 1])]) -
                         QPoint(1, -1);  // inside the axis rect
    const int entry = order[positionOfColumn(plot, pixel.x(), n)];
    QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);
    QCOMPARE(selection.ranks(), std::vector<int>{plan_.plan->ranks[size_t(entry)].rank});
}

void TestChartDistributions::newtonSchulzAsADistribution() {
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(plan_);
    BatchRef gathered;  // the first gathered batch: its Newton–Schulz chart
    for (size_t g = 0; g < plan_.plan->groups.size() && !gathered.isValid(); ++g)
        for (size_t b = 0; b < plan_.plan->groups[g].batches.size() && !gathered.isValid(); ++b)
            if (plan_.plan->groups[g].batches[b].isShard) gathered = {int(g), int(b)};
    QVERIFY(gathered.isValid());
    const Batch& batch = plan_.plan->groups[size_t(gathered.group)].batches[size_t(gathered.batch)];
    selection.selectParam(batch.params.front(), gathered.group, gathered.batch);
    QCOMPARE(view.shownBatch(), gathered);
    view.renderImage(kNarrow);
    const auto& loads = view.computeLoads();
    QVERIFY(tooManyForBars(loads.size(), view.shardPlot()->width()));
    const DistributionChart& chart = view.shardDistribution();
    checkSaysSo(chart, QStringLiteral("replicate × shard coordinates"), loads.size());
    std::vector<double> numel(loads.numels().begin(), loads.numels().end());
    checkFigures(chart, 0, numel, DistributionChart::kWorstNamed);
    const std::vector<int> order = ascending(numel);
    QCustomPlot* plot = view.shardPlot();
    const size_t n = order.size();
    const QPoint pixel = columnPixel(plot, n / 2, n, numel[size_t(order[n / 2])] / 2);
    const int entry = order[positionOfColumn(plot, pixel.x(), n)];
    QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);
    QCOMPARE(selection.ranks(), loads.rankList(size_t(entry)));
}

void TestChartDistributions::wideEnoughKeepsTheBars() {
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(plan_);
    view.renderImage(kNarrow);
    QVERIFY(view.coordDistribution().isShown());
    view.renderImage(kWide);  // the same view widened: room for 256 bars
    QVERIFY(!tooManyForBars(view.balance().coords.size(), view.coordPlot()->width()));
    QVERIFY(!view.coordDistribution().isShown());
    std::vector<double> loads;
    for (int64_t numel : view.balance().numel) loads.push_back(double(numel));
    QCOMPARE(barValues(view.coordBars()), loads);
    int texts = 0;  // the subtitle went with the distribution
    for (int e = 0; e < view.coordPlot()->plotLayout()->elementCount(); ++e)
        texts +=
            qobject_cast<QCPTextElement*>(view.coordPlot()->plotLayout()->elementAt(e)) ? 1 : 0;
    QCOMPARE(texts, 1);
    // 512 ranks of three bars each still need 3,072 px.
    QVERIFY(view.rankDistribution().isShown());
}

void TestChartDistributions::memoryPeaksAsADistribution() {
    PlanResult plan = plan_;
    plan.prediction =
        predictPlan(plan, std::make_shared<const Cluster>(readClusterPreset("h100-dgx")));
    QVERIFY(plan.prediction && plan.prediction->cost);
    PlanSelection selection;
    selection.setPlan(plan, {});
    MemoryWidget view(&selection);
    view.showPlan(plan);
    view.renderImage(kNarrow);
    const DistributionChart& chart = view.rankDistribution();
    const PlanCost& cost = *plan.prediction->cost;
    checkSaysSo(chart, QStringLiteral("ranks"), cost.memory.size());
    QVERIFY(view.kindBars(MemoryKind::Param)->data()->isEmpty());
    std::vector<double> peaks;
    for (const StepMemory& rank : cost.memory) peaks.push_back(double(rank.peakBytes));
    checkFigures(chart, 0, peaks, DistributionChart::kWorstNamed,
                 [](double bytes) { return QString::fromStdString(humanBytes(bytes)); });
    for (int entry : chart.worst(0))
        QVERIFY2(chart.subtitle().contains(
                     QStringLiteral("rank %1 (").arg(cost.memory[size_t(entry)].rank)),
                 qPrintable(chart.subtitle()));
    const std::vector<int> order = ascending(peaks);
    QCustomPlot* plot = view.rankPlot();
    const size_t n = order.size();
    const QPoint pixel = columnPixel(plot, n / 3, n, peaks[size_t(order[n / 3])] / 2);
    const int entry = order[positionOfColumn(plot, pixel.x(), n)];
    QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);
    QCOMPARE(selection.ranks(), std::vector<int>{cost.memory[size_t(entry)].rank});
    // The kinds' legend, beside the bars, is not drawn here and leaves the
    // curve its room.
    QVERIFY(!plot->legend->visible());
    QVERIFY2(plot->axisRect()->outerRect().width() >= plot->width() - 2,
             qPrintable(QStringLiteral("the curve has %1 px of the plot's %2")
                            .arg(plot->axisRect()->outerRect().width())
                            .arg(plot->width())));
}

QTEST_MAIN(TestChartDistributions)
#include "tst_chart_distributions.moc"
