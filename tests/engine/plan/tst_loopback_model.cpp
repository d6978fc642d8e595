// SPDX-License-Identifier: Apache-2.0
// The cost model of a run on this machine (docs/cost-model.md, "Gloo's
// algorithms", "Shared cores", "Calibrating a machine", "Checking a
// prediction against a run"): each formula against values worked out by hand.
#include <QtTest>

#include <cmath>

#include "accuracy/run_prediction.h"
#include "calibrate/calibrate.h"
#include "cluster/reader.h"
#include "cost/collective_cost.h"
#include "cost/plan_cost.h"
#include "cost/shared_cores.h"
#include "plan/planner.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

RankWork compute(double flops) {
    return {WorkKind::NewtonSchulz, StepPhase::Local, -1, -1, flops};
}
RankWork collective(int c) {
    return {WorkKind::Collective, StepPhase::Gather, 0, c, 0};
}

const ComputeRates kTeraflop{1e12, 1e12};

// One node of 16 ranks, 10 us and 1 GB/s, Gloo's algorithms.
Cluster glooCluster(double sharedCores = 0) {
    Cluster c;
    c.name = "test";
    c.nodes = 1;
    c.devicesPerNode = 16;
    c.rankToNode = defaultRankToNode(1, 16);
    c.intraNode = {1e9, 10e-6, 1};
    c.interNode = c.intraNode;
    c.device.memoryBytes = 1;
    c.device.peakFlops = {1e12, 1e12, 1e12};
    c.algorithms = CollectiveAlgorithms::Gloo;
    c.sharedCores = sharedCores;
    return c;
}

std::vector<int> ranks(int n) {
    std::vector<int> out;
    for (int r = 0; r < n; ++r) out.push_back(r);
    return out;
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-12 + 1e-9 * std::abs(b);
}

}  // namespace

class TestLoopbackModel : public QObject {
    Q_OBJECT
private slots:
    void binomialTreeDepthIsCeilLog2() {
        const std::vector<std::pair<int, int>> cases = {{0, 0}, {1, 0}, {2, 1}, {3, 2}, {4, 2},
                                                        {5, 3}, {8, 3}, {9, 4}, {16, 4}};
        for (const auto& [n, depth] : cases) QCOMPARE(binomialTreeDepth(n), depth);
    }

    void glooBroadcastIsATree() {
        // 4 ranks: 2 steps x 10 us + the root sends 1 MB twice at 1 GB/s.
        const auto cost = collectiveCost(CollectiveOp::Broadcast, 1000000, ranks(4), glooCluster());
        QCOMPARE(cost.steps, 2);
        QVERIFY(near(cost.busBytes, 2e6));
        QVERIFY(near(cost.seconds, 20e-6 + 2e-3));
        // 5 ranks: depth 3.
        QVERIFY(near(collectiveSeconds(CollectiveOp::Broadcast, 1000000, ranks(5), glooCluster()),
                     30e-6 + 3e-3));
    }

    void glooRingOpsAreNcclRing() {
        Cluster ring = glooCluster();
        ring.algorithms = CollectiveAlgorithms::NcclRing;
        for (auto op : {CollectiveOp::AllGather, CollectiveOp::AllReduce, CollectiveOp::AllToAll,
                        CollectiveOp::ReduceScatter})
            QCOMPARE(collectiveSeconds(op, 800000, ranks(8), glooCluster()),
                     collectiveSeconds(op, 800000, ranks(8), ring));
        // all_gather of 8 x 100 kB: 7 x 10 us + 7/8 x 800 kB / 1 GB/s.
        QVERIFY(near(collectiveSeconds(CollectiveOp::AllGather, 800000, ranks(8), glooCluster()),
                     70e-6 + 700e-6));
        // NCCL's ring broadcast: 3 steps, the buffer once.
        QVERIFY(near(collectiveSeconds(CollectiveOp::Broadcast, 1000000, ranks(4), ring),
                     30e-6 + 1e-3));
    }

    void sharedCoreSpeed_data() {
        QTest::addColumn<int>("busy");
        QTest::addColumn<double>("cores");
        QTest::addColumn<double>("speed");
        QTest::newRow("fewer busy than cores") << 1 << 2.0 << 1.0;
        QTest::newRow("as many") << 2 << 2.0 << 1.0;
        QTest::newRow("3 on 2") << 3 << 2.0 << 2.0 / 3;
        QTest::newRow("8 on 2") << 8 << 2.0 << 0.25;
        QTest::newRow("fractional cores") << 4 << 1.5 << 0.375;
        QTest::newRow("no sharing") << 8 << 0.0 << 1.0;
    }
    void sharedCoreSpeed() {
        QFETCH(int, busy);
        QFETCH(double, cores);
        QFETCH(double, speed);
        QVERIFY(near(hsdp::sharedCoreSpeed(busy, cores), speed));
        QVERIFY(near(sharedCoreSlowdown(busy, 1, cores), 1 / speed));
    }

    void fourComputesOnTwoCoresTakeTwiceAsLong() {
        StepSchedule s;
        s.worldSize = 4;
        s.ranks = {{compute(1e12)}, {compute(1e12)}, {compute(1e12)}, {compute(1e12)}};
        const StepSimulation sim = simulateOnSharedCores(s, {}, kTeraflop, 2);
        for (const auto& rank : sim.ranks) QVERIFY(near(rank.finish, 2));
        QVERIFY(near(sim.makespan, 2));
    }

    void speedRisesWhenARankFinishes() {
        // One core: ranks of 1 s and 2 s of work share it until the first is
        // done at 2 s (each did 1 s), then the second runs alone: 3 s.
        StepSchedule s;
        s.worldSize = 2;
        s.ranks = {{compute(1e12)}, {compute(2e12)}};
        const StepSimulation sim = simulateOnSharedCores(s, {}, kTeraflop, 1);
        QVERIFY(near(sim.ranks[0].finish, 2));
        QVERIFY(near(sim.ranks[1].finish, 3));
        QCOMPARE(sim.lastRank, 1);
    }

    void aWaitingRankUsesNoCore() {
        // Two ranks meet in a 1 s collective; rank 0 first computes 1 s, while
        // rank 1 waits (asleep), so rank 0 has the one core alone: the
        // collective starts at 1 s and, both busy, ends at 1 + 2 = 3 s.
        StepSchedule s;
        s.worldSize = 2;
        s.groups = {{0, 1}};
        s.collectives = {ScheduledCollective{}};
        s.ranks = {{compute(1e12), collective(0)}, {collective(0)}};
        const StepSimulation sim = simulateOnSharedCores(s, {1.0}, kTeraflop, 1);
        QVERIFY(near(sim.collectiveStart[0], 1));
        QVERIFY(near(sim.collectiveSeconds[0], 2));
        QVERIFY(near(sim.makespan, 3));
        QVERIFY(near(sim.ranks[1].waiting, 1));
        // The critical path: rank 0's compute, then the collective.
        QCOMPARE(sim.criticalPath.size(), size_t(2));
        QCOMPARE(sim.criticalPath[0].rank, 0);
    }

    void memberLoadAndIdleWakeUp() {
        // Two ranks in a 1 s collective on 2 cores, members weighing 0.5:
        // load 1 of 2 cores, speed 1, idle fraction 1 - 1/2 = 0.5, so an idle
        // wake-up of 0.2 s adds 0.1 s: 1.1 s.
        StepSchedule s;
        s.worldSize = 2;
        s.groups = {{0, 1}};
        s.collectives = {ScheduledCollective{}};
        s.ranks = {{collective(0)}, {collective(0)}};
        QVERIFY(near(idleFraction(1, 2), 0.5));
        QVERIFY(near(idleFraction(3, 2), 0));
        QVERIFY(near(idleFraction(1, 0), 0));
        const StepSimulation sim = simulateOnSharedCores(s, {1.0}, kTeraflop, 2, 0.5, {0.2});
        QVERIFY(near(sim.makespan, 1.1));
        // On one core, members weighing 1: load 2, speed 1/2, no idle core: 2 s.
        QVERIFY(near(simulateOnSharedCores(s, {1.0}, kTeraflop, 1, 1, {0.2}).makespan, 2));
    }

    void enoughCoresIsTheUnsharedPass() {
        const Scenario scenario =
            readScenarioFile(hsdp::testing::sample("teaching_2x2.json").toStdString());
        const Plan plan = makePlan(scenario);
        const StepSchedule schedule = stepSchedule(scenario, plan);
        const Cluster cluster = glooCluster();
        const auto seconds = collectiveSecondsOn(schedule, cluster);
        const StepSimulation plain = simulateStep(schedule, seconds, kTeraflop);
        const StepSimulation shared = simulateOnSharedCores(schedule, seconds, kTeraflop, 64);
        QVERIFY(near(shared.makespan, plain.makespan));
        for (size_t c = 0; c < seconds.size(); ++c)
            QVERIFY(near(shared.collectiveSeconds[c], plain.collectiveSeconds[c]));
        // Fewer cores never speed the step up.
        double previous = shared.makespan;
        for (double cores : {4.0, 2.0, 1.0}) {
            const double step = simulateOnSharedCores(schedule, seconds, kTeraflop, cores).makespan;
            QVERIFY(step >= previous - 1e-12);
            previous = step;
        }
    }

    void fitRecoversTheParameters() {
        // Samples made by the model itself (30 us + 5 us per rank a step,
        // 2 GB/s, 2 cores) fit back exactly, op by op.
        for (auto op : {CollectiveOp::AllGather, CollectiveOp::Broadcast}) {
            std::vector<CollectiveSample> samples;
            for (int n : {2, 4, 8})
                for (int groups : {1, 2})
                    for (int64_t size : {int64_t(4096), int64_t(1) << 20}) {
                        const double alone =
                            collectiveSteps(op, n, CollectiveAlgorithms::Gloo) *
                                (30e-6 + n * 5e-6) +
                            double(size) * busBandwidthFactor(op, n, CollectiveAlgorithms::Gloo) /
                                2e9;
                        samples.push_back(
                            {op, n, groups, 0, size, alone * sharedCoreSlowdown(n, groups, 2), 0});
                    }
            const LinkSpec fit = fitLink(samples, 2);
            QVERIFY2(std::abs(fit.latencySeconds - 30e-6) < 1e-10,
                     qPrintable(QString::number(fit.latencySeconds) + " " +
                                QString::number(fit.latencyPerRankSeconds) + " " +
                                QString::number(fit.idleWakeSeconds)));
            QVERIFY(std::abs(fit.latencyPerRankSeconds - 5e-6) < 1e-10);
            QVERIFY(std::abs(fit.bandwidthBytesPerSecond - 2e9) < 1e3);
            for (const auto& s : samples) QVERIFY(near(s.predictedSeconds, s.seconds));
        }
    }

    void latencyPerRankAndPerOpFigures() {
        // all_gather of 4 x 1 kB: 3 steps x (10 us + 4 x 2 us) + 3 kB / 1 GB/s.
        Cluster c = glooCluster();
        c.intraNode.latencyPerRankSeconds = 2e-6;
        QVERIFY(
            near(collectiveSeconds(CollectiveOp::AllGather, 4000, ranks(4), c), 3 * 18e-6 + 3e-6));
        // broadcast's own figures: 2 steps x 1 us + 2 x 1 MB / 10 GB/s.
        LinkSpec tree{10e9, 1e-6, 1};
        c.intraNodeByOp = {{"broadcast", tree}};
        QVERIFY(
            near(collectiveSeconds(CollectiveOp::Broadcast, 1000000, ranks(4), c), 2e-6 + 2e-4));
        QVERIFY(
            near(collectiveSeconds(CollectiveOp::AllGather, 4000, ranks(4), c), 3 * 18e-6 + 3e-6));
    }

    void errorsAndMedians() {
        QCOMPARE(relativeError(2, 3), 0.5);
        QCOMPARE(relativeError(4, 3), 0.25);
        QCOMPARE(relativeError(0, 0), 0.0);
        QVERIFY(std::isinf(relativeError(0, 1)));
        QCOMPARE(medianOf({}), 0.0);
        QCOMPARE(medianOf({3, 1, 2}), 2.0);
        QCOMPARE(medianOf({4, 1, 3, 2}), 2.5);
    }

    void theLoopbackPresetIsAGlooClusterOnSharedCores() {
        const Cluster loopback = readClusterPreset("loopback");
        QCOMPARE(loopback.algorithms, CollectiveAlgorithms::Gloo);
        QVERIFY(loopback.sharedCores > 0);
        QVERIFY(!loopback.calibration.empty());
        QVERIFY(loopback.device.memoryBandwidthBytesPerSecond > 0);
        // The GPU presets keep NCCL's ring and their own devices.
        for (const char* gpu : {"h100-dgx", "a100-dgx", "h200-hgx"}) {
            const Cluster c = readClusterPreset(gpu);
            QCOMPARE(c.algorithms, CollectiveAlgorithms::NcclRing);
            QCOMPARE(c.sharedCores, 0.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestLoopbackModel)
#include "tst_loopback_model.moc"
