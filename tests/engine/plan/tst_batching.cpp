// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include "plan/batching.h"
#include "plan/planner.h"
#include "planner_fixtures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// Params with the given numels (shape [n]) on a 1-d replicate mesh.
std::vector<ParamSpec> specsWithNumels(const std::vector<int>& numels) {
    ScenarioBuilder b;
    b.mesh({2});
    for (size_t i = 0; i < numels.size(); ++i)
        b.param("p" + std::to_string(i), {numels[i]}, std::vector<std::string>{"R"});
    return b.build().params;
}

QString batchesText(const std::vector<std::vector<int>>& batches) {
    QStringList out;
    for (const auto& b : batches) out << QString::fromStdString(joinInts(b));
    return out.join('|');
}

QString scheduleText(const std::vector<ScheduleEntry>& schedule) {
    QStringList out;
    for (const auto& s : schedule) out << QString("%1/%2").arg(s.group).arg(s.batch);
    return out.join(' ');
}

}  // namespace

class TestBatching : public QObject {
    Q_OBJECT
private slots:
    void split_data() {
        QTest::addColumn<QString>("numels");
        QTest::addColumn<qint64>("cap");  // 0: null
        QTest::addColumn<QString>("batches");
        QTest::newRow("null cap: one batch, index order") << "1,9,5" << 0LL << "0,1,2";
        QTest::newRow("cap below every param") << "1,9,5" << 1LL << "1|2|0";
        QTest::newRow("soft cap keeps the crossing param") << "10,10,10,10" << 25LL << "0,1,2|3";
        QTest::newRow("exactly reaching the cap closes") << "5,5,5" << 10LL << "0,1|2";
        QTest::newRow("stable on equal numels") << "3,7,3,7" << 100LL << "1,3,0,2";
        QTest::newRow("batches sorted by numel") << "10,6,6" << 10LL << "1,2|0";
        QTest::newRow("stable on equal batch numels") << "4,4,4,4" << 8LL << "0,1|2,3";
        QTest::newRow("big param alone") << "100,1,1,1" << 50LL << "0|1,2,3";
    }

    void split() {
        QFETCH(QString, numels);
        QFETCH(qint64, cap);
        QFETCH(QString, batches);
        auto specs = specsWithNumels(ints(numels.toStdString()));
        std::vector<int> params;
        for (const auto& s : specs) params.push_back(s.index);
        std::optional<int64_t> m = cap ? std::optional<int64_t>(cap) : std::nullopt;
        QCOMPARE(batchesText(splitIntoBatches(params, specs, m)), batches);
    }

    void schedule_data() {
        QTest::addColumn<qint64>("cap");
        QTest::addColumn<QString>("schedule");
        // Group 0 (index order first) is the smaller one: a cap reorders groups.
        QTest::newRow("null cap: group order") << 0LL << "0/0 1/0";
        QTest::newRow("cap: groups by total numel") << 64LL << "1/0 1/1 0/0";
    }

    void schedule() {
        QFETCH(qint64, cap);
        QFETCH(QString, schedule);
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("bias", {16}, std::vector<std::string>{"R", "R"});
        b.param("w1", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("w2", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        if (cap) b.options().maxBatchNumel = cap;
        Plan plan = makePlan(b.build());
        QCOMPARE(scheduleText(plan.schedule), schedule);
        QCOMPARE(plan.groups[1].id, 1);  // group ids stay in first-appearance order
    }

    void frozenParamsCountInBatchNumel() {
        ScenarioBuilder b;
        b.mesh({2, 2});
        b.param("w", {8, 8}, std::vector<std::string>{"R", "S(0)"});
        b.param("frozen", {16, 8}, std::vector<std::string>{"R", "S(0)"}, false);
        b.options().maxBatchNumel = 100;
        Plan plan = makePlan(b.build());
        const auto& batches = plan.groups.at(0).batches;
        // The frozen param alone reaches the cap and its batch sorts first by numel.
        QCOMPARE(batches.size(), size_t(2));
        QCOMPARE(batches[0].params, (std::vector<int>{1}));
        QCOMPARE(batches[0].numel, int64_t(128));
        QVERIFY(batches[0].owner.empty());
        QCOMPARE(batches[1].params, (std::vector<int>{0}));
        QCOMPARE(batches[1].numel, int64_t(64));
    }

    void workedExampleBatches() {
        // batches_and_replica_split: six layers of w (6144), v (4096), b (64), cap 20000.
        ScenarioBuilder b;
        b.mesh({16, 4});
        for (int i = 0; i < 6; ++i) {
            b.param("w", {96, 64}, std::vector<std::string>{"R", "S(0)"}, true, "main",
                    DType::BF16);
            b.param("v", {64, 64}, std::vector<std::string>{"R", "S(0)"}, true, "main",
                    DType::BF16);
            b.param("b", {64}, std::vector<std::string>{"R", "R"});
        }
        b.options().maxBatchNumel = 20000;
        Plan plan = makePlan(b.build());
        const auto& g = plan.groups.at(0).batches;
        QCOMPARE(g.size(), size_t(3));
        QCOMPARE(g[0].params, (std::vector<int>{0, 3, 6, 9}));
        QCOMPARE(g[1].params, (std::vector<int>{12, 15, 1, 4}));
        QCOMPARE(g[2].params, (std::vector<int>{7, 10, 13, 16}));
        QCOMPARE(g[0].numel, int64_t(24576));
        QCOMPARE(g[1].numel, int64_t(20480));
        QCOMPARE(g[2].numel, int64_t(16384));
        QCOMPARE(scheduleText(plan.schedule), QString("0/0 0/1 0/2 1/0"));
    }
};

QTEST_APPLESS_MAIN(TestBatching)
#include "tst_batching.moc"
