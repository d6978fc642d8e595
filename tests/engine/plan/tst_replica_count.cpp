// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "plan/grouping.h"
#include "plan/planner.h"
#include "plan/replica_count.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// One [R, S(0)] weight and (optionally) one [R, R] bias on a 2-d mesh.
Scenario hsdpScenario(int64_t replicate, int64_t shard, bool withBias, PlanOptions options) {
    ScenarioBuilder b;
    b.mesh({replicate, shard}, {"dp_replicate", "dp_shard"});
    b.param("w", {64, 64}, std::vector<std::string>{"R", "S(0)"});
    if (withBias) b.param("b", {64}, std::vector<std::string>{"R", "R"});
    b.options() = options;
    return b.build();
}

QString codeList(const std::vector<Diagnostic>& diagnostics) {
    QStringList out;
    for (const auto& d : diagnostics) out << QString::fromStdString(d.code);
    return out.join(' ');
}

}  // namespace

class TestReplicaCount : public QObject {
    Q_OBJECT
private slots:
    void effectiveCount_data() {
        QTest::addColumn<qint64>("replicate");
        QTest::addColumn<qint64>("shard");
        QTest::addColumn<bool>("withBias");
        QTest::addColumn<bool>("autoCount");
        QTest::addColumn<qint64>("userCount");  // 0: none
        QTest::addColumn<qint64>("devicesPerNode");
        QTest::addColumn<qint64>("expected");  // 0: null
        QTest::addColumn<QString>("codes");
        QTest::newRow("manual none") << 4LL << 2LL << true << false << 0LL << 8LL << 0LL << "";
        QTest::newRow("manual kept") << 4LL << 2LL << true << false << 2LL << 8LL << 2LL << "";
        QTest::newRow("manual larger than dims")
            << 2LL << 2LL << true << false << 4LL << 8LL << 4LL << "";
        QTest::newRow("manual indivisible")
            << 6LL << 2LL << false << false << 4LL << 8LL << 4LL << "replica-count-indivisible";
        QTest::newRow("auto, no split") << 4LL << 2LL << true << true << 0LL << 8LL << 0LL << "";
        QTest::newRow("auto discards user count")
            << 4LL << 2LL << true << true << 2LL << 8LL << 0LL << "replica-count-ignored";
        QTest::newRow("auto split to node size")
            << 16LL << 4LL << false << true << 0LL << 8LL << 8LL << "";
        QTest::newRow("auto min over positions")
            << 16LL << 4LL << true << true << 0LL << 8LL << 4LL << "";
        QTest::newRow("auto split keeps user count")
            << 16LL << 4LL << true << true << 2LL << 8LL << 2LL << "";
        QTest::newRow("auto dedup lowered to a divisor")
            << 12LL << 2LL << false << true << 0LL << 8LL << 6LL << "";
        QTest::newRow("auto prime size dedups to 1")
            << 11LL << 2LL << false << true << 0LL << 8LL << 1LL << "";
        QTest::newRow("auto size-1 positions ignored")
            << 1LL << 16LL << true << true << 0LL << 8LL << 8LL << "";
        QTest::newRow("auto user count indivisible")
            << 16LL << 2LL << false << true << 3LL << 8LL << 3LL << "replica-count-indivisible";
    }

    void effectiveCount() {
        QFETCH(qint64, replicate);
        QFETCH(qint64, shard);
        QFETCH(bool, withBias);
        QFETCH(bool, autoCount);
        QFETCH(qint64, userCount);
        QFETCH(qint64, devicesPerNode);
        QFETCH(qint64, expected);
        QFETCH(QString, codes);
        PlanOptions options;
        options.autoReplicaCount = autoCount;
        if (userCount) options.hsdpReplicaCount = userCount;
        options.devicesPerNode = devicesPerNode;
        Plan plan = makePlan(hsdpScenario(replicate, shard, withBias, options));
        QCOMPARE(plan.effectiveReplicaCount.value_or(0), expected);
        QCOMPARE(codeList(plan.diagnostics), codes);
    }

    void ignoredCountIsAWarningWithoutParams() {
        PlanOptions options;
        options.autoReplicaCount = true;
        options.hsdpReplicaCount = 2;
        Plan plan = makePlan(hsdpScenario(4, 2, true, options));
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        QCOMPARE(plan.diagnostics[0].severity, Severity::Warning);
        QVERIFY(plan.diagnostics[0].params.empty());
        QVERIFY(!plan.diagnostics[0].message.empty());
        QVERIFY(!plan.hasErrors());
        // The count really is dropped: full replicate sizes.
        QCOMPARE(plan.groups[0].batches[0].replicateSizes, (std::vector<int64_t>{4}));
    }

    void indivisibleListsOffendingGroupsParams() {
        // Mesh dims 6 and 4: count 4 divides the 4-dim but not the 6-dim.
        ScenarioBuilder b;
        b.mesh({6, 4});
        b.param("rowrep", {8, 8}, std::vector<std::string>{"R", "S(0)"});   // replicate dim 0 (6)
        b.param("colrep", {12, 8}, std::vector<std::string>{"S(0)", "R"});  // replicate dim 1 (4)
        b.param("rowrep2", {4, 8}, std::vector<std::string>{"R", "S(0)"});
        b.options().hsdpReplicaCount = 4;
        Plan plan = makePlan(b.build());
        QVERIFY(plan.hasErrors());
        QCOMPARE(plan.diagnostics.size(), size_t(1));
        QCOMPARE(plan.diagnostics[0].code, std::string("replica-count-indivisible"));
        QCOMPARE(plan.diagnostics[0].params, (std::vector<int>{0, 2}));
        // Planning goes on: every group has batches with owners.
        for (const auto& g : plan.groups) QVERIFY(!g.batches.at(0).owner.empty());
    }

    void deductionKeepsMinimumPerPosition() {
        // Two groups: replicate dims (0) of size 16 and (0, 1) of sizes 16, 4.
        ScenarioBuilder b;
        b.mesh({16, 4});
        b.param("w", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("b", {8}, std::vector<std::string>{"R", "R"});
        DiagnosticSink sink;
        auto grouping = groupParameters(b.build(), sink);
        auto d = deduceReplicaCount(grouping.groups, 8);
        QVERIFY(d.splitNeeded);
        QCOMPARE(d.minimumDedup.value_or(-1), int64_t(4));
        auto none = deduceReplicaCount(grouping.groups, 16);
        QVERIFY(!none.splitNeeded);
    }

    void reducedSizesAndCoordinates_data() {
        QTest::addColumn<qint64>("count");  // 0: none
        QTest::addColumn<QString>("sizes");
        QTest::addColumn<QString>("coord");
        QTest::newRow("no count") << 0LL << "8,2"
                                  << "5,1";
        QTest::newRow("count 4") << 4LL << "4,2"
                                 << "1,1";
        QTest::newRow("count 2") << 2LL << "2,2"
                                 << "1,1";
        QTest::newRow("count 1") << 1LL << "1,1"
                                 << "0,0";
    }

    void reducedSizesAndCoordinates() {
        QFETCH(qint64, count);
        QFETCH(QString, sizes);
        QFETCH(QString, coord);
        Group g;
        g.meshShape = {8, 3, 2};
        g.replicateMeshDims = {0, 2};
        std::optional<int64_t> c = count ? std::optional<int64_t>(count) : std::nullopt;
        std::vector<int> gotSizes;
        for (auto s : replicateSizes(g, c)) gotSizes.push_back(int(s));
        QCOMPARE(QString::fromStdString(joinInts(gotSizes)), sizes);
        std::vector<int> gotCoord;
        for (auto x : replicateCoordinate({5, 2, 1}, g.replicateMeshDims, c))
            gotCoord.push_back(int(x));
        QCOMPARE(QString::fromStdString(joinInts(gotCoord)), coord);
    }

    void ranksFollowReducedCoordinates() {
        // [8, 1] mesh, count 2: ranks 0,2,4,6 share coordinate (0), 1,3,5,7 share (1).
        ScenarioBuilder b;
        b.mesh({8, 1});
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("b", {4, 8}, std::vector<std::string>{"R", "S(0)"});
        b.options().hsdpReplicaCount = 2;
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.groups[0].batches[0].replicateSizes, (std::vector<int64_t>{2}));
        for (const auto& r : plan.ranks)
            QCOMPARE(r.owned, (std::vector<int>{r.rank % 2 == 0 ? 0 : 1}));
    }
};

QTEST_APPLESS_MAIN(TestReplicaCount)
#include "tst_replica_count.moc"
