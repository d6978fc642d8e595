// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <chrono>
#include <random>

#include "export/plan_json.h"
#include "plan/ownership.h"
#include "plan/planner.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

std::vector<OwnerItem> itemsOf(const std::vector<int>& numels) {
    std::vector<OwnerItem> items;
    for (size_t i = 0; i < numels.size(); ++i) items.push_back({int(i), numels[i]});
    return items;
}

// Owner coordinate index per param index, "-" for none.
QString ownersText(const OwnerAssignment& a, size_t params) {
    std::vector<QString> byParam(params, "-");
    for (const auto& [p, c] : a.owners) byParam[size_t(p)] = QString::number(c);
    QStringList out(byParam.begin(), byParam.end());
    return out.join(',');
}

QString loadsText(const OwnerAssignment& a) {
    QStringList out;
    for (auto l : a.loads) out << QString::number(l);
    return out.join(',');
}

}  // namespace

class TestOwnership : public QObject {
    Q_OBJECT
private slots:
    void greedy_data() {
        QTest::addColumn<QString>("numels");
        QTest::addColumn<int>("coords");
        QTest::addColumn<QString>("owners");
        QTest::addColumn<QString>("loads");
        QTest::newRow("ties to the smallest coordinate") << "4,4,4,4" << 2 << "0,1,0,1"
                                                         << "8,8";
        QTest::newRow("largest first") << "1,5,3" << 2 << "1,0,1"
                                       << "5,4";
        QTest::newRow("equal numels by index") << "2,2,2" << 3 << "0,1,2"
                                               << "2,2,2";
        QTest::newRow("more coords than params") << "7,3" << 4 << "0,1"
                                                 << "7,3,0,0";
        QTest::newRow("single coordinate") << "1,2,3" << 1 << "0,0,0"
                                           << "6";
        QTest::newRow("least load, not round robin") << "10,4,3,3" << 2 << "0,1,1,1"
                                                     << "10,10";
        QTest::newRow("no params") << "" << 3 << ""
                                   << "0,0,0";
    }

    void greedy() {
        QFETCH(QString, numels);
        QFETCH(int, coords);
        QFETCH(QString, owners);
        QFETCH(QString, loads);
        auto n = ints(numels.toStdString());
        for (auto assign : {assignOwners, assignOwnersByScan}) {
            auto a = assign(itemsOf(n), coords);
            QCOMPARE(ownersText(a, n.size()), owners);
            QCOMPARE(loadsText(a), loads);
        }
    }

    void scanEqualsHeapOnRandomInputs() {
        std::mt19937 rng(20261130);
        for (int round = 0; round < 300; ++round) {
            int params = int(rng() % 60), coords = 1 + int(rng() % 40);
            int spread = 1 + int(rng() % 8);  // small spreads force many ties
            std::vector<OwnerItem> items;
            // Some rounds hold empty params: they must not skip the heap's ties.
            const bool empties = round % 5 == 0;
            for (int p = 0; p < params; ++p)
                items.push_back(
                    {p * 3 + 1, empties && rng() % 3 == 0 ? 0 : 1 + int64_t(rng() % spread) * 64});
            std::shuffle(items.begin(), items.end(), rng);
            auto heap = assignOwners(items, coords);
            auto scan = assignOwnersByScan(items, coords);
            QCOMPARE(heap.owners, scan.owners);
            QCOMPARE(heap.loads, scan.loads);
        }
    }

    void coordinatesAreRowMajor() {
        std::vector<int64_t> sizes{2, 3};
        QCOMPARE(coordinateCount(sizes), int64_t(6));
        auto all = allCoordinates(sizes);
        for (int64_t i = 0; i < 6; ++i) {
            QCOMPARE(coordinateAt(i, sizes), all[size_t(i)]);
            QCOMPARE(coordinateIndex(all[size_t(i)], sizes), i);
        }
        QCOMPARE(coordinateAt(0, {}), Coord{});
        QCOMPARE(coordinateCount({}), int64_t(1));
    }

    void multiDimGridIsLexicographic() {
        ScenarioBuilder b;
        b.mesh({2, 2, 2});
        for (int i = 0; i < 5; ++i)
            b.param("b" + std::to_string(i), {16}, std::vector<std::string>{"R", "R", "S(0)"});
        Plan plan = makePlan(b.build());
        const Batch& batch = plan.groups.at(0).batches.at(0);
        QCOMPARE(batch.replicateSizes, (std::vector<int64_t>{2, 2}));
        QCOMPARE(batch.owner.at(0), (Coord{0, 0}));
        QCOMPARE(batch.owner.at(1), (Coord{0, 1}));
        QCOMPARE(batch.owner.at(2), (Coord{1, 0}));
        QCOMPARE(batch.owner.at(3), (Coord{1, 1}));
        QCOMPARE(batch.owner.at(4), (Coord{0, 0}));
        QCOMPARE(batch.loads.size(), size_t(4));
        QCOMPARE(batch.loadCoord(2), (Coord{1, 0}));
        QCOMPARE(batch.loads[0], int64_t(32));
    }

    void frozenParamsHaveNoOwner() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("big.frozen", {64, 8}, std::vector<std::string>{"R", "S(0)"}, false);
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("c", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        Plan plan = makePlan(b.build());
        const Batch& batch = plan.groups.at(0).batches.at(0);
        QVERIFY(!batch.owner.count(0));
        QCOMPARE(batch.owner.at(1), (Coord{0}));
        QCOMPARE(batch.owner.at(2), (Coord{1}));
        QCOMPARE(batch.loads[0] + batch.loads[1], int64_t(128));
        for (const auto& r : plan.ranks)
            QVERIFY(std::find(r.owned.begin(), r.owned.end(), 0) == r.owned.end());
    }

    void ranksOutsideTheMeshOwnNothing() {
        // A 2x2 mesh on ranks 5,4,1,0 of a world of 7.
        ScenarioBuilder b;
        b.mesh({2, 2}, {}, {5, 4, 1, 0});
        b.worldSize(7);
        b.param("a", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("c", {4, 8}, std::vector<std::string>{"R", "S(0)"});
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.ranks.size(), size_t(7));
        for (int r : {2, 3, 6}) {
            QVERIFY(plan.ranks[size_t(r)].owned.empty());
            QCOMPARE(plan.ranks[size_t(r)].ownedNumel, int64_t(0));
        }
        // Replicate coordinate 0 = mesh row 0 = ranks 5, 4 own the larger param.
        QCOMPARE(plan.ranks[5].owned, (std::vector<int>{0}));
        QCOMPARE(plan.ranks[4].owned, (std::vector<int>{0}));
        QCOMPARE(plan.ranks[1].owned, (std::vector<int>{1}));
        QCOMPARE(plan.ranks[0].ownedNumel, int64_t(32));
        for (size_t r = 0; r < plan.ranks.size(); ++r) QCOMPARE(plan.ranks[r].rank, int(r));
    }

    void noReplicateDimsOwnsEverywhere() {
        ScenarioBuilder b;
        b.mesh({4});
        b.param("a", {8, 8}, std::vector<std::string>{"S(0)"});
        b.param("c", {8, 4}, std::vector<std::string>{"S(1)"});
        Plan plan = makePlan(b.build());
        QCOMPARE(plan.groups.at(0).batches.at(0).owner.at(0), Coord{});
        for (const auto& r : plan.ranks) {
            QCOMPARE(r.owned, (std::vector<int>{0, 1}));
            QCOMPARE(r.ownedNumel, int64_t(96));
        }
    }

    void shardComputeSpreadsOverShardGroup() {
        // One replicate coordinate owning 3 params over a 2x2 shard grid (sizes not reduced).
        ScenarioBuilder b;
        b.mesh({2, 2, 2});
        b.param("a", {16, 8}, std::vector<std::string>{"S(0)", "R", "S(1)"});
        b.param("c", {8, 8}, std::vector<std::string>{"S(0)", "R", "S(1)"});
        b.param("d", {8, 4}, std::vector<std::string>{"S(0)", "R", "S(1)"});
        b.options().hsdpReplicaCount = 1;
        Plan plan = makePlan(b.build());
        const Batch& batch = plan.groups.at(0).batches.at(0);
        QVERIFY(batch.isShard);
        QCOMPARE(batch.replicateSizes, (std::vector<int64_t>{1}));
        QCOMPARE(batch.shardCompute.size(), size_t(1));
        const auto& cc = batch.shardCompute[0].computeCoord;
        QCOMPARE(cc.at(0), (Coord{0, 0}));
        QCOMPARE(cc.at(1), (Coord{0, 1}));
        QCOMPARE(cc.at(2), (Coord{1, 0}));
    }

    void notGatheredHasNoShardCompute() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("experts", {4, 8, 8}, std::vector<std::string>{"S(0)", "R"});
        Plan plan = makePlan(b.build());
        QVERIFY(!plan.groups[0].batches[0].isShard);
        QVERIFY(plan.groups[0].batches[0].shardCompute.empty());
    }

    // 4,000 params on 8,192 ranks: planning and JSON must stay well under a second.
    void largeScenarioOwnershipIsConsistent_data() {
        QTest::addColumn<qint64>("replicate");
        QTest::addColumn<qint64>("shard");
        QTest::addColumn<qint64>("cap");
        QTest::newRow("1024x8, one batch per group") << 1024LL << 8LL << 0LL;
        QTest::newRow("1024x8, 8M cap") << 1024LL << 8LL << 8000000LL;
        QTest::newRow("64x128, 2M cap") << 64LL << 128LL << 2000000LL;
    }

    void largeScenarioOwnershipIsConsistent() {
        QFETCH(qint64, replicate);
        QFETCH(qint64, shard);
        QFETCH(qint64, cap);
        Scenario s =
            largeScenario(4000, replicate, shard, cap ? std::optional<int64_t>(cap) : std::nullopt);
        auto t0 = std::chrono::steady_clock::now();
        Plan plan = makePlan(s);
        auto t1 = std::chrono::steady_clock::now();
        std::string json = planToJson(plan, s).dump();
        auto t2 = std::chrono::steady_clock::now();
        double planMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
        double jsonMs = std::chrono::duration<double, std::milli>(t2 - t1).count();
        qInfo("plan %.1f ms, json %.1f ms (%zu bytes, %zu batches)", planMs, jsonMs, json.size(),
              plan.schedule.size());
        QCOMPARE(plan.ranks.size(), size_t(8192));
        // Each owned param is held by every rank of its owner's replicate slice.
        int64_t owned = 0, expected = 0;
        for (const auto& r : plan.ranks) owned += int64_t(r.owned.size());
        for (const auto& g : plan.groups)
            for (const auto& b : g.batches)
                expected += int64_t(b.owner.size()) * 8192 / coordinateCount(b.replicateSizes);
        QCOMPARE(owned, expected);
        QVERIFY(owned >= 4000);
    }
};

QTEST_APPLESS_MAIN(TestOwnership)
#include "tst_ownership.moc"
