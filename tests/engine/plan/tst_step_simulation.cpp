// SPDX-License-Identifier: Apache-2.0
// The discrete-event pass and the plan's predicted step (docs/cost-model.md):
// hand-made schedules worked out by hand, and the invariants on the samples.
#include <QtTest>

#include "cluster/reader.h"
#include "cost/plan_cost.h"
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

// Rank 0 computes 2 s, then both ranks meet in collective 0 (0.5 s); rank 1
// then computes 1 s alone.
StepSchedule twoRanks() {
    StepSchedule s;
    s.worldSize = 2;
    s.groups = {{0, 1}};
    s.collectives = {ScheduledCollective{}};
    s.ranks = {{compute(2e12), collective(0)}, {collective(0), compute(1e12)}};
    return s;
}

const ComputeRates kTeraflop{1e12, 1e12};

Scenario sampleScenario(const char* name) {
    return readScenarioFile(hsdp::testing::sample(name).toStdString());
}

double stepOn(const Scenario& scenario, const Cluster& cluster) {
    return costPlan(scenario, makePlan(scenario), cluster).stepSeconds;
}

}  // namespace

class TestStepSimulation : public QObject {
    Q_OBJECT
private slots:
    void aCollectiveStartsWhenItsLastMemberArrives() {
        const StepSimulation sim = simulateStep(twoRanks(), {0.5}, kTeraflop);
        QCOMPARE(sim.collectiveStart[0], 2.0);
        QCOMPARE(sim.ranks[0].spans[1].end, 2.5);
        QCOMPARE(sim.ranks[1].spans[0].arrival, 0.0);
        QCOMPARE(sim.ranks[1].waiting, 2.0);
        QCOMPARE(sim.ranks[1].busy, 1.5);
        QCOMPARE(sim.ranks[0].finish, 2.5);
        QCOMPARE(sim.makespan, 3.5);
        QCOMPARE(sim.lastRank, 1);
    }

    void theCriticalPathFollowsTheLastArrival() {
        const StepSimulation sim = simulateStep(twoRanks(), {0.5}, kTeraflop);
        // rank 0's compute made the collective late; rank 1 ends the step.
        QCOMPARE(int(sim.criticalPath.size()), 3);
        QCOMPARE(sim.criticalPath[0].rank, 0);
        QCOMPARE(sim.criticalPath[0].work, 0);
        QCOMPARE(sim.criticalPath[1].rank, 0);
        QCOMPARE(sim.criticalPath[2].rank, 1);
        QCOMPARE(sim.criticalPath[2].work, 1);
    }

    void aCollectiveSomeMemberNeverReachesIsAnError() {
        StepSchedule s = twoRanks();
        s.ranks[1] = {compute(1)};
        QVERIFY_THROWS_EXCEPTION(std::logic_error, simulateStep(s, {0.5}, kTeraflop));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateStep(s, {}, kTeraflop));
    }

    void aFasterInterNodeLinkNeverSlowsTheStep() {
        const Scenario scenario = sampleScenario("llama3_70b_hsdp_tp_2x4x4.json");
        Cluster cluster = readClusterPreset("h100-dgx");
        const double base = stepOn(scenario, cluster);
        cluster.interNode.bandwidthBytesPerSecond *= 2;
        const double faster = stepOn(scenario, cluster);
        QVERIFY(faster < base);  // the sample's dp groups cross nodes
        cluster.interNode.latencySeconds /= 2;
        QVERIFY(stepOn(scenario, cluster) <= faster);
    }

    void groupsInsideNodesIgnoreTheInterNodeLink() {
        const Scenario scenario = sampleScenario("teaching_2x2.json");  // 4 ranks, one node of 8
        Cluster cluster = readClusterPreset("h100-dgx");
        const double base = stepOn(scenario, cluster);
        QVERIFY(base > 0);
        cluster.interNode.bandwidthBytesPerSecond /= 100;
        cluster.interNode.latencySeconds *= 100;
        QCOMPARE(stepOn(scenario, cluster), base);
        cluster.intraNode.bandwidthBytesPerSecond /= 2;
        QVERIFY(stepOn(scenario, cluster) > base);
    }

    void doublingEveryByteDoublesABandwidthBoundStep() {
        const Scenario scenario = sampleScenario("llama3_8b_hsdp_2x4.json");
        Cluster cluster = clusterForWorld(readClusterPreset("a100-dgx"), scenario.worldSize);
        cluster.intraNode.latencySeconds = cluster.interNode.latencySeconds = 0;
        StepSchedule schedule = stepSchedule(scenario, makePlan(scenario));
        const ComputeRates none{0, 0};  // compute not costed: only the bytes
        const double once =
            simulateStep(schedule, collectiveSecondsOn(schedule, cluster), none).makespan;
        for (auto& c : schedule.collectives) c.sizeBytes *= 2;
        const double twice =
            simulateStep(schedule, collectiveSecondsOn(schedule, cluster), none).makespan;
        QVERIFY(once > 0);
        QVERIFY(qAbs(twice / once - 2.0) < 1e-9);
    }

    void theCostNamesTheCrossingGroupsAndEveryRank() {
        const Scenario scenario = sampleScenario("llama3_70b_hsdp_tp_2x4x4.json");
        const PlanCost cost = costPlan(scenario, makePlan(scenario), readClusterPreset("h100-dgx"));
        QCOMPARE(cost.cluster.nodes, 4);  // 32 ranks on nodes of 8
        QCOMPARE(int(cost.ranks.size()), 32);
        double longest = 0;
        for (const auto& r : cost.ranks) longest = std::max(longest, r.finishSeconds);
        QCOMPARE(cost.stepSeconds, longest);
        double path = 0;
        for (const auto& s : cost.criticalPath) path += s.seconds;
        QVERIFY(qAbs(path - cost.stepSeconds) < 1e-9 * cost.stepSeconds);  // no gap on the path
        bool tpInside = false, dpAcross = false;
        for (const auto& d : cost.meshDims) {
            if (d.dimName == "tp") tpInside = d.crossingNodes == 0;
            if (d.dimName == "dp_replicate") dpAcross = d.crossingNodes == d.groups;
        }
        QVERIFY(tpInside);
        QVERIFY(dpAcross);
    }
};

QTEST_GUILESS_MAIN(TestStepSimulation)
#include "tst_step_simulation.moc"
