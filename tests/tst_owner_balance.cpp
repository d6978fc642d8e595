// The owner balance view over every sample: its coordinate bars are the
// shown batch's Batch::loads, its mean and lower bound agree with numbers
// computed here from the Scenario's param sizes, its rank bars are
// Plan::ranks' owned numel, its shard bars the Batch::shardCompute counts;
// clicking a coordinate bar (a real mouse click) selects exactly the ranks
// at that replicate coordinate; screenshot mode writes owner-balance.png.
#include <qcustomplot.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <map>

#include "models/plan_index.h"
#include "sample_rows.h"
#include "views/owner_balance_view.h"

using namespace hsdp;

namespace {

std::vector<double> barValues(QCPBars* bars) {
    std::vector<double> values;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

// The ranks at replicate coordinate `coord` of `group`, from the row-major
// position of each rank in the group's mesh, reduced modulo the replica count.
std::vector<int> ranksAt(const Group& group, const Coord& coord, std::optional<int64_t> count) {
    std::vector<int> ranks;
    for (size_t position = 0; position < group.meshRanks.size(); ++position) {
        Coord meshCoord(group.meshShape.size());
        size_t rest = position;
        for (size_t d = group.meshShape.size(); d-- > 0;) {
            meshCoord[d] = static_cast<int64_t>(rest % static_cast<size_t>(group.meshShape[d]));
            rest /= static_cast<size_t>(group.meshShape[d]);
        }
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

QString studio() {
    return QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio");
}

}  // namespace

class TestOwnerBalance : public QObject {
    Q_OBJECT
private slots:
    void samples_data();
    void barsAreThePlansLoads_data() { samples_data(); }
    void barsAreThePlansLoads();
    void clickingABarSelectsItsRanks_data() { samples_data(); }
    void clickingABarSelectsItsRanks();
    void batchFollowsTheSelection();
    void screenshotModeWritesOwnerBalance();
};

void TestOwnerBalance::samples_data() {
    testing::addSampleRows();
}

void TestOwnerBalance::barsAreThePlansLoads() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    OwnerBalanceView view(&selection);
    view.setResult(result);
    // No selection: the worst batch by max/mean, as the status bar reports it.
    BatchRef shown = view.shownBatch();
    QVERIFY(shown.isValid());
    const Group& group = result.plan->groups[static_cast<size_t>(shown.group)];
    const Batch& batch = group.batches[static_cast<size_t>(shown.batch)];
    QVERIFY(qFuzzyCompare(*view.balance().imbalance, result.index->worstImbalance));
    std::vector<double> loads;
    for (const CoordLoad& load : batch.loads) loads.push_back(static_cast<double>(load.numel));
    QCOMPARE(barValues(view.coordBars()), loads);
    int64_t total = 0, largest = 0;
    for (int p : batch.params) {
        int64_t numel = result.scenario->params[static_cast<size_t>(p)].numel();
        total += numel;
        largest = std::max(largest, numel);
    }
    double mean = static_cast<double>(total) / static_cast<double>(batch.loads.size());
    double bound = std::max(static_cast<double>(largest), mean);
    QCOMPARE(view.meanLine()->data()->at(0)->value, mean);
    QCOMPARE(view.lowerBoundLine()->data()->at(0)->value, bound);
    QVERIFY(view.lowerBoundLine()->data()->at(0)->value >= mean);
    std::vector<double> owned;
    for (const RankOwnership& rank : result.plan->ranks)
        owned.push_back(static_cast<double>(rank.ownedNumel));
    QCOMPARE(barValues(view.rankBars()), owned);
    // Newton–Schulz load: params each shard coordinate computes, gathered only.
    std::map<Coord, double> shardNumel;
    for (const ShardCompute& compute : batch.shardCompute)
        for (const auto& [param, coord] : compute.computeCoord)
            shardNumel[coord] +=
                static_cast<double>(result.scenario->params[static_cast<size_t>(param)].numel());
    std::vector<double> expectedShard;
    for (const auto& [coord, numel] : shardNumel) expectedShard.push_back(numel);
    QCOMPARE(barValues(view.shardBars()), expectedShard);
    QCOMPARE(batch.isShard, !expectedShard.empty());
}

void TestOwnerBalance::clickingABarSelectsItsRanks() {
    QFETCH(QString, path);
    PlanResult result = computePlanResult(path);
    PlanSelection selection;
    OwnerBalanceView view(&selection);
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

void TestOwnerBalance::batchFollowsTheSelection() {
    PlanResult result =
        computePlanResult(QStringLiteral(HSDP_SOURCE_DIR "/samples/llama3_70b_hsdp_tp_2x4x4.json"));
    PlanSelection selection;
    OwnerBalanceView view(&selection);
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
    process.start(studio(), {QStringLiteral("--screenshot"), dir.path(),
                             QStringLiteral(HSDP_SOURCE_DIR "/samples/teaching_2x2.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QImage image(dir.filePath(QStringLiteral("owner-balance.png")));
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 900));
}

QTEST_MAIN(TestOwnerBalance)
#include "tst_owner_balance.moc"
