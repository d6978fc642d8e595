// SPDX-License-Identifier: Apache-2.0
// What each rank sends and receives to get the matrices to the ranks that
// run Newton–Schulz and the update back, under the fused all-gather (the
// runner's) and under all-to-all: the all-gather figures are what a real
// run's trace shows rank by rank; under both, every byte sent is received;
// all-to-all's figures are counted by hand on small shard groups, and on a
// balanced batch of 8 ranks each rank receives several times less.
#include <QtTest>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cost/gather_traffic.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_budget.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

// 1-D shard group of `ranks`, `params` matrices of rows x cols in `dtype`, S(0).
Scenario shardGroup(int ranks, int params, int rows, int cols, const char* dtype, int alignment) {
    nlohmann::ordered_json scenario = {{"format", "hsdp-scenario/1"},
                                       {"name", "shard group"},
                                       {"mesh", {{"shape", {ranks}}, {"dim_names", {"dp_shard"}}}},
                                       {"options", {{"alignment_bytes", alignment}}},
                                       {"params", nlohmann::ordered_json::array()}};
    for (int p = 0; p < params; ++p)
        scenario["params"].push_back({{"name", "w" + std::to_string(p)},
                                      {"shape", {rows, cols}},
                                      {"dtype", dtype},
                                      {"placements", {"S(0)"}}});
    return readScenarioJson(scenario);
}

// The rank (= its shard coordinate on a 1-D mesh) that runs each param's Newton–Schulz.
std::map<int, int> computingRanks(const Plan& plan) {
    std::map<int, int> ranks;
    for (const Group& group : plan.groups)
        for (const Batch& batch : group.batches)
            for (int p : batch.params) {
                ranks[p] = 0;
                for (const ShardCompute& sc : batch.shardCompute)
                    if (auto it = sc.computeCoord.find(p); it != sc.computeCoord.end())
                        ranks[p] = int(it->second.at(0));
            }
    return ranks;
}

void checkConservation(const StrategyTraffic& traffic) {
    PhaseBytes gather, back;
    for (const auto& r : traffic.ranks) {
        gather.sent += r.gather.sent;
        gather.received += r.gather.received;
        back.sent += r.updateReturn.sent;
        back.received += r.updateReturn.received;
    }
    QCOMPARE(gather.sent, gather.received);
    QCOMPARE(back.sent, back.received);
}

}  // namespace

class TestGatherTraffic : public QObject {
    Q_OBJECT
private slots:
    void allGatherIsWhatTheRunnerSends_data() {
        QTest::addColumn<QString>("file");
        for (const char* name :
             {"teaching_2x2.json", "llama3_8b_hsdp_2x4.json", "diagnostics_tour.json"})
            QTest::newRow(name) << hsdp::testing::sample(name);
    }

    // Per rank and phase, the trace's bytes of a real run at its shrunk shapes.
    void allGatherIsWhatTheRunnerSends() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = makePlan(scenario);
        const RunResult run = runPlan(scenario, plan, hsdp::testing::budgetedRunOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        const StepSchedule schedule = stepSchedule(scenario, plan, run.paramShapes, run.tpShapes);
        const GatherTraffic traffic = gatherTraffic(scenario, plan, schedule, run.paramShapes);
        // TraceEvent::bytes: what the rank put on the wire.
        std::vector<int64_t> gathered(size_t(scenario.worldSize)), returned(gathered);
        for (const TraceEvent& e : run.trace.events) {
            if (e.label.phase == "gather") gathered[size_t(e.rank)] += e.bytes;
            if (e.label.phase == "update-broadcast") returned[size_t(e.rank)] += e.bytes;
        }
        int64_t total = 0;
        for (int r = 0; r < scenario.worldSize; ++r) {
            const RankGatherTraffic& mine = traffic.allGather.ranks[size_t(r)];
            QCOMPARE(mine.gather.sent, gathered[size_t(r)]);
            QCOMPARE(mine.updateReturn.sent, returned[size_t(r)]);
            total += mine.sent();
        }
        QVERIFY(total > 0);
    }

    void everyByteSentIsReceived_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : hsdp::testing::scenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void everyByteSentIsReceived() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const GatherTraffic traffic = gatherTraffic(scenario, makePlan(scenario));
        QCOMPARE(int(traffic.allGather.ranks.size()), scenario.worldSize);
        QCOMPARE(int(traffic.allToAll.ranks.size()), scenario.worldSize);
        checkConservation(traffic.allGather);
        checkConservation(traffic.allToAll);
        // Only what a computing rank lacks moves: never more than the gather.
        QVERIFY(traffic.allToAll.totalReceived() <= traffic.allGather.totalReceived());
    }

    // 4 ranks, rows split 4 ways, alignment 1 (no padding): a member that does
    // not compute a param sends rows/4 x cols elements of it to the one that
    // does and gets rows/4 x cols fp32 back.
    void allToAllCountedByHand() {
        const int n = 4, rows = 8, cols = 6;
        const Scenario scenario = shardGroup(n, 3, rows, cols, "bf16", 1);
        const Plan plan = makePlan(scenario);
        const GatherTraffic traffic = gatherTraffic(scenario, plan);
        std::vector<PhaseBytes> gather(n), back(n);
        const int64_t piece = rows / n * cols;
        for (auto [p, computing] : computingRanks(plan)) {
            for (int r = 0; r < n; ++r) {
                if (r == computing) continue;
                gather[size_t(r)].sent += piece * 2;
                gather[size_t(computing)].received += piece * 2;
                back[size_t(computing)].sent += piece * 4;
                back[size_t(r)].received += piece * 4;
            }
        }
        for (int r = 0; r < n; ++r) {
            const RankGatherTraffic& mine = traffic.allToAll.ranks[size_t(r)];
            QCOMPARE(mine.gather.sent, gather[size_t(r)].sent);
            QCOMPARE(mine.gather.received, gather[size_t(r)].received);
            QCOMPARE(mine.updateReturn.sent, back[size_t(r)].sent);
            QCOMPARE(mine.updateReturn.received, back[size_t(r)].received);
        }
        // Padding: with 512-byte alignment every piece and slice takes 512.
        const Scenario padded = shardGroup(n, 3, rows, cols, "bf16", 512);
        const GatherTraffic paddedTraffic = gatherTraffic(padded, makePlan(padded));
        for (const auto& r : paddedTraffic.allToAll.ranks) {
            QCOMPARE(r.gather.sent % 512, int64_t(0));
            QCOMPARE(r.updateReturn.received % 512, int64_t(0));
        }
    }

    // 8 ranks, 8 equal matrices, one computed on each rank: the fused
    // all-gather brings every rank 7/8 of the batch and 7 full fp32 updates
    // (42 N bytes for N elements a matrix, bf16), all-to-all 7/8 of one
    // matrix and 7 slices of an eighth (5.25 N): 8x less.
    void aBalancedBatchReceivesAnEighth() {
        const int n = 8, side = 256;
        const Scenario scenario = shardGroup(n, n, side, side, "bf16", 512);
        const Plan plan = makePlan(scenario);
        std::set<int> computing;
        for (auto [p, rank] : computingRanks(plan)) computing.insert(rank);
        QCOMPARE(int(computing.size()), n);  // the planner spread them: one each
        const GatherTraffic traffic = gatherTraffic(scenario, plan);
        const int64_t numel = int64_t(side) * side;
        for (const auto& r : traffic.allToAll.ranks)
            QCOMPARE(r.received(), (n - 1) * (numel / n) * 2 + (n - 1) * (numel / n) * 4);
        for (const auto& r : traffic.allGather.ranks)
            QCOMPARE(r.received(), (n - 1) * (numel / n) * 2 * n + (n - 1) * numel * 4);
        const double ratio =
            double(traffic.allGather.maxReceived()) / double(traffic.allToAll.maxReceived());
        QVERIFY2(ratio >= 4, qPrintable(QString::number(ratio)));
    }
};

QTEST_MAIN(TestGatherTraffic)
#include "tst_gather_traffic.moc"
