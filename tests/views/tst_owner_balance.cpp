// SPDX-License-Identifier: Apache-2.0
// The owner balance view over every sample: its coordinate bars are the
// shown batch's Batch::loads, its mean and lower bound agree with numbers
// computed here from the Scenario's param sizes, its rank bars are
// Plan::ranks' held, gathered and computed numel, its Newton–Schulz bars one
// per replicate x shard coordinate (idle ones at zero, replicas never
// summed); clicking a coordinate bar (a real mouse click) selects exactly the
// ranks at that replicate coordinate; at the studio's dock sizes no two tick
// labels overlap, no two Newton–Schulz bars share a tick label, no two texts
// over its bars overlap, and every title fits; screenshot mode writes
// owner-balance.png.
#include <qcustomplot.h>

#include <QDir>
#include <QLabel>
#include <QPicture>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

#include "derived/plan/plan_index.h"
#include "owner_balance/owner_balance_widget.h"
#include "plan/load_imbalance.h"
#include "sample_rows.h"
#include "window/main_window.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

std::vector<double> barValues(QCPBars* bars) {
    std::vector<double> values;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

// The mesh coordinate of the rank at row-major `position` of the group's mesh.
Coord rowMajorCoord(const Group& group, size_t position) {
    Coord meshCoord(group.meshShape.size());
    for (size_t d = group.meshShape.size(); d-- > 0;) {
        meshCoord[d] = static_cast<int64_t>(position % static_cast<size_t>(group.meshShape[d]));
        position /= static_cast<size_t>(group.meshShape[d]);
    }
    return meshCoord;
}

// The ranks at replicate coordinate `coord` of `group`, from the row-major
// position of each rank in the group's mesh, reduced modulo the replica count.
std::vector<int> ranksAt(const Group& group, const Coord& coord, std::optional<int64_t> count) {
    std::vector<int> ranks;
    for (size_t position = 0; position < group.meshRanks.size(); ++position) {
        const Coord meshCoord = rowMajorCoord(group, position);
        Coord reduced;
        for (int d : group.replicateMeshDims) {
            int64_t c = meshCoord[static_cast<size_t>(d)];
            reduced.push_back(count ? c % *count : c);
        }
        if (reduced == coord) ranks.push_back(group.meshRanks[position]);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

// The ranks at replicate coordinate `replicate` (reduced modulo the replica
// count) and shard coordinate `shard`, from each rank's row-major position.
std::vector<int> ranksComputing(const Group& group, const Coord& replicate, const Coord& shard,
                                std::optional<int64_t> count) {
    std::vector<int> ranks;
    for (size_t position = 0; position < group.meshRanks.size(); ++position) {
        const Coord meshCoord = rowMajorCoord(group, position);
        Coord reduced, here;
        for (int d : group.replicateMeshDims)
            reduced.push_back(count ? meshCoord[static_cast<size_t>(d)] % *count
                                    : meshCoord[static_cast<size_t>(d)]);
        for (int d : group.shardMeshDims) here.push_back(meshCoord[static_cast<size_t>(d)]);
        if (reduced == replicate && here == shard) ranks.push_back(group.meshRanks[position]);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

// Where a tick label is drawn along the axis, and how much room it takes there.
struct TickSpan {
    double centre, half;
    QString text;
};

// The non-empty tick labels inside the axis range, in key order.
std::vector<TickSpan> tickSpans(QCPAxis* axis) {
    const QFontMetrics metrics(axis->tickLabelFont());
    const bool upright = std::abs(axis->tickLabelRotation()) > 45;
    std::vector<TickSpan> spans;
    const auto ticks = axis->tickVector();
    const auto labels = axis->tickVectorLabels();
    for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (labels[i].isEmpty() || !axis->range().contains(ticks[i])) continue;
        const double extent = upright ? metrics.height() : metrics.horizontalAdvance(labels[i]);
        spans.push_back({axis->coordToPixel(ticks[i]), extent / 2, labels[i]});
    }
    return spans;
}

QString studio() {
    return QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio");
}

}  // namespace

class TestOwnerBalance : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void samples_data();
    void barsAreThePlansLoads_data() { samples_data(); }
    void gatheredSeriesSaysItsStrategy();
    void barsAreThePlansLoads();
    void clickingABarSelectsItsRanks_data() { samples_data(); }
    void clickingABarSelectsItsRanks();
    void batchFollowsTheSelection();
    void screenshotModeWritesOwnerBalance();
    void contentFitsTheDock_data();
    void contentFitsTheDock();
    void rankPictureLabelsEnoughRanks();
    void groupTotalsAreItsBatchesSummed();
    void withoutAPlanItSaysSoAndNoAxes();

private:
    void checkNewtonSchulzBars(const OwnerBalanceWidget& view, const PlanResult& result,
                               const Group& group, const Batch& batch);
};

void TestOwnerBalance::samples_data() {
    testing::addSampleRows();
}

void TestOwnerBalance::barsAreThePlansLoads() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(result);
    // No selection: where the status bar's worst imbalance is (the places the
    // owner-imbalance rule judges): that batch, with the same max/mean; for a
    // group over its batches, the group's first batch; with nothing judged,
    // the plan's first batch.
    BatchRef shown = view.shownBatch();
    QVERIFY(shown.isValid());
    const Group& group = result.plan->groups[static_cast<size_t>(shown.group)];
    const Batch& batch = group.batches[static_cast<size_t>(shown.batch)];
    const PlanIndex& index = *result.index;
    if (index.worstGroup < 0) {
        QCOMPARE(shown, (BatchRef{0, 0}));
    } else if (index.worstBatch < 0) {
        QCOMPARE(shown, (BatchRef{index.worstGroup, 0}));
    } else {
        QCOMPARE(shown, (BatchRef{index.worstGroup, index.worstBatch}));
        QVERIFY(qFuzzyCompare(*view.balance().imbalance, index.worstImbalance));
        QVERIFY2(batch.owner.size() >= batch.loads.size(), "the worst batch is one not judged");
    }
    std::vector<double> loads;
    for (int64_t load : batch.loads) loads.push_back(static_cast<double>(load));
    QCOMPARE(barValues(view.coordBars()), loads);
    // The mean of the loads (max/mean's): a frozen param owned by no coordinate adds nothing.
    int64_t total = 0, largest = 0;
    for (const auto& [p, coord] : batch.owner) {
        int64_t numel = result.scenario->params[static_cast<size_t>(p)].numel();
        total += numel;
        largest = std::max(largest, numel);
    }
    double mean = static_cast<double>(total) / static_cast<double>(batch.loads.size());
    double bound = std::max(static_cast<double>(largest), mean);
    QCOMPARE(view.meanLine()->data()->at(0)->value, mean);
    // The dashed mean is the bars' own: the title's max/mean divides by it.
    double loadSum = 0;
    for (double load : loads) loadSum += load;
    QCOMPARE(view.meanLine()->data()->at(0)->value, loadSum / static_cast<double>(loads.size()));
    QCOMPARE(view.lowerBoundLine()->data()->at(0)->value, bound);
    QVERIFY(view.lowerBoundLine()->data()->at(0)->value >= mean);
    // Where no param outweighs the mean the bound is the mean: one line and
    // one legend entry say both (two on one line read as a drawing fault).
    const bool boundIsMean = bound <= mean;
    QCOMPARE(view.coordBars()->parentPlot()->legend->hasItemWithPlottable(view.lowerBoundLine()),
             !boundIsMean);
    QCOMPARE(view.lowerBoundLine()->visible(), !boundIsMean);
    QCOMPARE(view.meanLine()->name().startsWith(QStringLiteral("mean = bound ")), boundIsMean);
    std::vector<double> held, gathered, computed;
    for (const RankOwnership& rank : result.plan->ranks) {
        held.push_back(static_cast<double>(rank.heldNumel));
        gathered.push_back(static_cast<double>(rank.gatheredNumel));
        computed.push_back(static_cast<double>(rank.computedNumel));
    }
    QCOMPARE(barValues(view.heldBars()), held);
    QCOMPARE(barValues(view.gatheredBars()), gathered);
    QCOMPARE(barValues(view.computedBars()), computed);
    checkNewtonSchulzBars(view, result, group, batch);
}

// Newton–Schulz numel at every (replicate, shard) coordinate, lexicographic:
// what Batch::shardCompute gives that replicate coordinate at that shard
// coordinate, zero where it gives nothing.
void TestOwnerBalance::checkNewtonSchulzBars(const OwnerBalanceWidget& view,
                                             const PlanResult& result, const Group& group,
                                             const Batch& batch) {
    std::vector<int64_t> shardSizes;
    for (int d : group.shardMeshDims) shardSizes.push_back(group.meshShape[static_cast<size_t>(d)]);
    std::vector<std::pair<Coord, Coord>> cells;  // every replicate x shard coordinate
    std::function<void(Coord, size_t, const std::vector<int64_t>&, std::vector<Coord>&)> all =
        [&](Coord c, size_t d, const std::vector<int64_t>& sizes, std::vector<Coord>& out) {
            if (d == sizes.size()) return out.push_back(c);
            for (int64_t i = 0; i < sizes[d]; ++i) {
                c.push_back(i);
                all(c, d + 1, sizes, out);
                c.pop_back();
            }
        };
    std::vector<Coord> replicas, shards;
    all({}, 0, batch.replicateSizes, replicas);
    all({}, 0, shardSizes, shards);
    std::map<std::pair<Coord, Coord>, double> numel;
    for (const ShardCompute& compute : batch.shardCompute)
        for (const auto& [param, coord] : compute.computeCoord)
            numel[{compute.replicateCoord, coord}] +=
                static_cast<double>(result.scenario->params[static_cast<size_t>(param)].numel());
    std::map<double, double> bars;  // key -> value, both colours
    for (int parity : {0, 1})
        for (auto it = view.shardBars(parity)->data()->constBegin();
             it != view.shardBars(parity)->data()->constEnd(); ++it)
            bars[it->key] = it->value;
    if (!batch.isShard) {
        QVERIFY(bars.empty());
        return;
    }
    QCOMPARE(bars.size(), replicas.size() * shards.size());  // idle coordinates too
    auto bar = bars.begin();
    for (const Coord& replica : replicas)
        for (const Coord& shard : shards) {
            QCOMPARE(bar->second, (numel[{replica, shard}]));
            ++bar;
        }
    const auto& loads = view.computeLoads();
    QCOMPARE(loads.size(), bars.size());
    for (size_t i = 0; i < loads.size(); ++i)
        QCOMPARE(loads.rankList(i),
                 ranksComputing(group, loads.replicateCoord(i), loads.shardCoord(i),
                                result.plan->effectiveReplicaCount));
}

void TestOwnerBalance::clickingABarSelectsItsRanks() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(result);
    view.renderImage(QSize(900, 700));  // lays the plots out
    const Group& group = result.plan->groups[static_cast<size_t>(view.shownBatch().group)];
    const auto& coords = view.balance().coords;
    for (size_t i = 0; i < coords.size(); ++i) {
        selection.clear();
        view.selectCoordinate(static_cast<int>(i));
        std::vector<int> expected = ranksAt(group, coords[i], result.plan->effectiveReplicaCount);
        QVERIFY(!expected.empty());
        QCOMPARE(selection.ranks(), expected);
        QCOMPARE(view.pickedCoordinate(), static_cast<int>(i));  // outlined
    }
    // A real click in the middle of the heaviest bar.
    std::vector<double> values = barValues(view.coordBars());
    auto heaviest =
        static_cast<size_t>(std::max_element(values.begin(), values.end()) - values.begin());
    QCustomPlot* plot = view.coordPlot();
    QPoint pixel(static_cast<int>(plot->xAxis->coordToPixel(static_cast<double>(heaviest))),
                 static_cast<int>(plot->yAxis->coordToPixel(values[heaviest] / 2)));
    selection.clear();
    QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);
    QCOMPARE(selection.ranks(),
             ranksAt(group, coords[heaviest], result.plan->effectiveReplicaCount));
    // A click on the last rank's column picks that rank alone.
    QCustomPlot* ranks = view.rankPlot();
    int last = static_cast<int>(result.plan->ranks.size()) - 1;
    QPoint rankPixel(static_cast<int>(ranks->xAxis->coordToPixel(last)),
                     static_cast<int>(ranks->yAxis->coordToPixel(0)) - 2);
    QTest::mouseClick(ranks, Qt::LeftButton, {}, rankPixel);
    QCOMPARE(selection.ranks(), std::vector<int>{result.plan->ranks.back().rank});
    int outlined = -1;  // the coordinate whose ranks are that one rank, if any
    for (size_t i = 0; i < coords.size(); ++i)
        if (ranksAt(group, coords[i], result.plan->effectiveReplicaCount) == selection.ranks())
            outlined = static_cast<int>(i);
    QCOMPARE(view.pickedCoordinate(), outlined);
}

// The plan's per-rank gathered figure is what the all-gather brings; under
// all-to-all a rank receives only what it computes, and the series says so
// (every rank's orange bar at the all-gather's height read as all-to-all's).
void TestOwnerBalance::gatheredSeriesSaysItsStrategy() {
    auto gatheredName = [](const QString& file) {
        PlanSelection selection;
        OwnerBalanceWidget view(&selection);
        view.setResult(computePlanResult(sample(file)));
        for (int i = 0; i < view.rankPlot()->plottableCount(); ++i)
            if (view.rankPlot()->plottable(i)->name().startsWith(QStringLiteral("gathered")))
                return view.rankPlot()->plottable(i)->name();
        return QString();
    };
    QCOMPARE(gatheredName(QStringLiteral("llama3_8b_hsdp_2x4.json")), QStringLiteral("gathered"));
    QVERIFY2(gatheredName(QStringLiteral("diff/llama3_8b_all_to_all.json"))
                 .contains(QStringLiteral("under all-gather")),
             qPrintable(gatheredName(QStringLiteral("diff/llama3_8b_all_to_all.json"))));
}

void TestOwnerBalance::batchFollowsTheSelection() {
    PlanResult result = computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json"));
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(result);
    for (size_t p = 0; p < result.scenario->params.size(); ++p) {
        const ParamPlace& place = result.index->params[p];
        if (place.group < 0) continue;
        selection.selectParam(static_cast<int>(p));  // no group given: found from the plan
        QCOMPARE(view.shownBatch(), (BatchRef{place.group, place.batch}));
        // Picking ranks keeps the batch on screen.
        view.selectCoordinate(0);
        QCOMPARE(view.shownBatch(), (BatchRef{place.group, place.batch}));
    }
}

void TestOwnerBalance::screenshotModeWritesOwnerBalance() {
    QTemporaryDir dir;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(env);
    process.start(studio(),
                  {QStringLiteral("--screenshot"), dir.path(), sample("teaching_2x2.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QImage image(dir.filePath(QStringLiteral("owner-balance.png")));
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 900));
}

// The owner balance view's size in a fresh main window of `window` pixels.
QSize dockedSize(QSize window) {
    MainWindow main;
    main.setAttribute(Qt::WA_DontShowOnScreen);
    main.resize(window);
    main.show();
    QApplication::processEvents();
    return main.view<OwnerBalanceWidget>()->size();
}

void TestOwnerBalance::contentFitsTheDock_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QSize>("size");
    // The dock of the default window (1440x900), of a 1366x768 one, a
    // narrow and a roomy one.
    const QSize docked = dockedSize(QSize(1440, 900)), small = dockedSize(QSize(1366, 768));
    QVERIFY(docked.width() > 300 && small.width() > 300);
    for (const QString& path : testing::samplePaths())
        for (QSize size : {docked, small, QSize(380, 420), QSize(900, 700)})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3")
                                         .arg(QFileInfo(path).baseName())
                                         .arg(size.width())
                                         .arg(size.height())))
                << path << size;
}

void TestOwnerBalance::contentFitsTheDock() {
    QFETCH(QString, path);
    QFETCH(QSize, size);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(result);
    view.renderImage(size);
    for (QCustomPlot* plot : view.plots()) {
        if (plot->isHidden()) continue;  // the Newton–Schulz plot of an ungathered batch
        auto spans = tickSpans(plot->xAxis);
        QVERIFY2(plot->width() <= size.width(), "the plot is wider than the dock");
        QVERIFY2(!spans.empty(), "a plot without any key label");
        for (size_t i = 1; i < spans.size(); ++i)
            QVERIFY2(spans[i].centre - spans[i - 1].centre >= spans[i].half + spans[i - 1].half,
                     qPrintable(QStringLiteral("tick labels '%1' and '%2' overlap")
                                    .arg(spans[i - 1].text, spans[i].text)));
        // Each bar its own label: a shard coordinate repeats in every replicate's block.
        QStringList texts;
        for (const TickSpan& span : spans) texts << span.text;
        QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
        // The counts over the bars and the replicates' titles, where drawn, apart.
        std::vector<std::pair<QRectF, QString>> drawn;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
                drawn.push_back(
                    {QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()),
                     text->text()});
        for (size_t i = 0; i < drawn.size(); ++i)
            for (size_t j = i + 1; j < drawn.size(); ++j)
                QVERIFY2(!drawn[i].first.intersects(drawn[j].first),
                         qPrintable(QStringLiteral("'%1' and '%2' over the bars overlap")
                                        .arg(drawn[i].second, drawn[j].second)));
        for (int e = 0; e < plot->plotLayout()->elementCount(); ++e) {
            auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(e));
            if (!title) continue;
            const QFontMetrics metrics(title->font());
            for (const QString& line : title->text().split(QLatin1Char('\n')))
                QVERIFY2(metrics.horizontalAdvance(line) <= plot->width(),
                         qPrintable(QStringLiteral("title '%1' is wider than its plot").arg(line)));
        }
        const auto values = plot->yAxis->tickVector();
        const double lineHeight = QFontMetrics(plot->yAxis->tickLabelFont()).height();
        for (qsizetype i = 1; i < values.size(); ++i)
            QVERIFY2(std::abs(plot->yAxis->coordToPixel(values[i]) -
                              plot->yAxis->coordToPixel(values[i - 1])) >= lineHeight,
                     "value tick labels overlap");
        QVERIFY2(plot->axisRect()->height() >= 40, "no room left for the bars");
        QVERIFY2(
            plot->legend->visible() == false ||
                plot->legend->outerRect().height() >= plot->legend->minimumOuterSizeHint().height(),
            qPrintable(QStringLiteral("the legend row is cut: %1 px of %2 in a %3 px plot")
                           .arg(plot->legend->outerRect().height())
                           .arg(plot->legend->minimumOuterSizeHint().height())
                           .arg(plot->height())));
    }
}

// A report's per-rank picture, drawn by a view never shown (as a report's
// views are) at a report's size and a narrower one: ranks 0, k, 2k, ... up
// to the last, k = 1 (every rank) while the labels fit, else 2, 5, 10, ...;
// no two labels overlap. It labelled rank 0 alone: its labels were thinned
// for the width of a plot never laid out.
void TestOwnerBalance::rankPictureLabelsEnoughRanks() {
    for (const QString& path :
         {sample("teaching_2x2.json"), sample("llama3_70b_hsdp_tp_2x4x4.json"),
          QStringLiteral(HSDP_SOURCE_DIR "/tests/data/scale/hsdp_2x64.json")}) {
        const PlanResult result = computePlanResult(path);
        PlanSelection selection;
        OwnerBalanceWidget view(&selection);
        view.setResult(result);
        const int ranks = static_cast<int>(result.plan->ranks.size());
        for (const QSize size : {QSize(1000, 420), QSize(624, 262)}) {
            QPicture picture;
            view.paintPicture(picture, size, QStringLiteral("rank"));
            const QString what = QStringLiteral("%1 ranks at %2 px").arg(ranks).arg(size.width());
            if (view.rankDistribution().isShown()) {
                QVERIFY2(ranks > 64, qPrintable(what));  // too many for bars at this width
                continue;
            }
            const std::vector<TickSpan> spans = tickSpans(view.rankPlot()->xAxis);
            QVERIFY2(spans.size() >= 2, qPrintable(what));
            const int step = spans[1].text.toInt() - spans[0].text.toInt();
            QVERIFY2(step == niceStep(step), qPrintable(what));
            for (size_t i = 0; i < spans.size(); ++i)
                QCOMPARE(spans[i].text.toInt(), static_cast<int>(i) * step);
            QVERIFY2(static_cast<int>(spans.size()) * step >= ranks, qPrintable(what));
            if (ranks <= 32 && size.width() >= 1000) QCOMPARE(step, 1);  // every rank when few
            if (ranks > 100) QVERIFY2(step > 1, qPrintable(what));
            for (size_t i = 1; i < spans.size(); ++i)
                QVERIFY2(spans[i - 1].centre + spans[i - 1].half < spans[i].centre - spans[i].half,
                         qPrintable(QStringLiteral("%1: %2 and %3 overlap")
                                        .arg(what, spans[i - 1].text, spans[i].text)));
        }
    }
}

// A group over its batches, where the owner-imbalance rule judges the
// Mixtral sample worst: its coordinate bars are its batches' loads summed,
// with the group's max/mean, its Newton–Schulz bars its gathered batches'
// work; a report's "group-" part draws that and leaves the view on its batch.
void TestOwnerBalance::groupTotalsAreItsBatchesSummed() {
    const PlanResult result = computePlanResult(sample("mixtral_8x7b_expert_mesh.json"));
    const std::optional<OwnerImbalance> worst = worstOwnerImbalance(result.plan->groups);
    QVERIFY(worst && worst->overGroup());
    const Group& group = result.plan->groups[static_cast<size_t>(worst->group)];
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    view.setResult(result);
    SelectionState state;
    state.group = worst->group;
    selection.set(state);
    QCOMPARE(view.shownBatch().group, worst->group);
    const std::vector<double> batchBars = barValues(view.coordBars());
    std::vector<double> sums;
    int64_t gathered = 0;
    for (const Batch& batch : group.batches) {
        sums.resize(std::max(sums.size(), batch.loads.size()), 0.0);
        for (size_t c = 0; c < batch.loads.size(); ++c)
            sums[c] += static_cast<double>(batch.loads[c]);
        if (batch.isShard)
            for (int p : batch.params)
                if (batch.owner.count(p)) gathered += result.scenario->params[size_t(p)].numel();
    }
    QVERIFY(sums != batchBars);
    view.showGroupTotals(true);
    QCOMPARE(barValues(view.coordBars()), sums);
    QVERIFY(qFuzzyCompare(*view.balance().imbalance, worst->ratio));
    QCOMPARE(view.meanLine()->data()->at(0)->value,
             std::accumulate(sums.begin(), sums.end(), 0.0) / static_cast<double>(sums.size()));
    int64_t computed = 0;
    for (size_t i = 0; i < view.computeLoads().size(); ++i)
        computed += view.computeLoads().numel(i);
    QCOMPARE(computed, gathered);
    view.showGroupTotals(false);
    QCOMPARE(barValues(view.coordBars()), batchBars);
    QPicture picture;
    view.paintPicture(picture, QSize(1000, 420), QStringLiteral("group-coord"));
    QVERIFY(!view.showsGroupTotals());
    QCOMPARE(barValues(view.coordBars()), batchBars);
}

// A new user opened an unreadable scenario and saw empty axes from 0 to 5:
// without a plan the view says so; with one it states the owner rule.
void TestOwnerBalance::withoutAPlanItSaysSoAndNoAxes() {
    PlanSelection selection;
    OwnerBalanceWidget view(&selection);
    auto noCharts = [&] {
        for (QCustomPlot* plot : view.plots())
            if (!plot->isHidden()) return false;
        return view.ruleLabel()->text().startsWith(QStringLiteral("No plan"));
    };
    QVERIFY(noCharts());
    view.setResult(computePlanResult(sample("llama3_70b_hsdp_tp_2x4x4.json")));
    QVERIFY(!view.coordPlot()->isHidden());
    QVERIFY(!view.rankPlot()->isHidden());
    QVERIFY2(view.ruleLabel()->text().contains(QStringLiteral("largest first")),
             qPrintable(view.ruleLabel()->text()));
    view.setResult(PlanResult{});
    QVERIFY(noCharts());
}

QTEST_MAIN(TestOwnerBalance)
#include "tst_owner_balance.moc"
