// SPDX-License-Identifier: Apache-2.0
// The all-to-all gather strategy and "auto", run for real on every sample and
// worked example and on hand-built layouts the exchange must get right
// (several shard mesh dims flattened, uneven, empty, strided and nested
// shards): every param verified bit for bit, the cost model's schedule and
// memory model equal to what the run did, each exchange's per-peer bytes
// consistent, and reference mode untouched by the option.
#include <QtTest>

#include <algorithm>
#include <numeric>

#include "accuracy/trace_match.h"
#include "cluster/reader.h"
#include "cost/gather_strategy_choice.h"
#include "cost/gather_traffic.h"
#include "cost/plan_cost.h"
#include "cost/plan_scenario.h"
#include "cost/step_memory_model.h"
#include "cost/step_schedule.h"
#include "export/plan_json.h"
#include "plan/grouping.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_budget.h"
#include "runtime_test_util.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::failedParams;

namespace {

Plan planWith(Scenario& scenario, GatherStrategyOption option) {
    scenario.options.gatherStrategy = option;
    Plan plan = makePlan(scenario);
    chooseGatherStrategies(scenario, plan, defaultStrategyCluster(), "loopback");
    return plan;
}

// The sanitizer presets divide the budgets (see tst_samples_run).
RunOptions testOptions(RunMode mode = RunMode::Corrected) {
    RunOptions options = hsdp::testing::budgetedRunOptions();
    options.mode = mode;
    return options;
}

int exchangedGroups(const Plan& plan) {
    return int(std::count_if(plan.groups.begin(), plan.groups.end(), [](const Group& g) {
        return isGathered(g) && g.gatherStrategy == GatherStrategy::AllToAll;
    }));
}

QString joined(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& l : lines) out << QString::fromStdString(l);
    return out.join('\n');
}

// The run of `plan` verifies, and the cost model saw it coming: the same
// collectives and compute in the same order, the same memory on every rank.
void checkRun(const Scenario& scenario, const Plan& plan) {
    const RunOptions options = testOptions();
    const RunResult run = runPlan(scenario, plan, options);
    QVERIFY2(run.error.empty(), run.error.c_str());
    QVERIFY2(failedParams(run).empty(), "a param failed");
    QCOMPARE(run.verified, !plan.hasErrors());
    const StepSchedule schedule = stepSchedule(scenario, plan, run.paramShapes, run.tpShapes);
    const ScheduleTraceMatch collectives = matchScheduleToTrace(schedule, run.trace);
    QVERIFY2(collectives.matches(), qPrintable(joined(collectives.mismatches)));
    QCOMPARE(int64_t(collectives.pairs.size()), run.rankEvents);
    const ComputeTraceMatch compute = matchComputeToTrace(schedule, run.trace);
    QVERIFY2(compute.matches(), qPrintable(joined(compute.mismatches)));
    const auto predicted = predictStepMemory(scenario, plan, run.paramShapes);
    for (const StepMemory& measured : run.memory)
        QVERIFY2(predicted[size_t(measured.rank)] == measured,
                 qPrintable(QString("rank %1: memory predicted %2, measured %3")
                                .arg(measured.rank)
                                .arg(predicted[size_t(measured.rank)].peakBytes)
                                .arg(measured.peakBytes)));
    // What the plan's gather traffic says each rank sends is what it sent.
    const GatherTraffic traffic = gatherTraffic(scenario, plan, schedule, run.paramShapes);
    std::vector<PhaseBytes> gatherSent(size_t(scenario.worldSize)),
        returnSent(size_t(scenario.worldSize));
    for (const TraceEvent& e : run.trace.events) {
        if (isCompute(e)) continue;
        if (e.label.phase == "gather") gatherSent[size_t(e.rank)].sent += e.bytes;
        if (e.label.phase == "update-broadcast") returnSent[size_t(e.rank)].sent += e.bytes;
    }
    for (const RankGatherTraffic& r : traffic.chosen.ranks) {
        QCOMPARE(r.gather.sent, gatherSent[size_t(r.rank)].sent);
        QCOMPARE(r.updateReturn.sent, returnSent[size_t(r.rank)].sent);
    }
    int exchanges = 0;
    for (const TraceEvent& e : run.trace.events) {
        if (e.op != "all_to_all_v") continue;
        ++exchanges;
        // peer_bytes lists every member's block; bytes leaves this rank's own out.
        QCOMPARE(e.label.peerBytes.size(), e.groupRanks.size());
        const auto me = std::find(e.groupRanks.begin(), e.groupRanks.end(), e.rank);
        const int64_t sent =
            std::accumulate(e.label.peerBytes.begin(), e.label.peerBytes.end(), int64_t(0)) -
            e.label.peerBytes[size_t(me - e.groupRanks.begin())];
        QCOMPARE(e.bytes, sent);
        QCOMPARE(e.label.meshDim, -1);
    }
    QCOMPARE(exchanges > 0, exchangedGroups(plan) > 0);
}

const char* const kLayouts[] = {
    // Two shard mesh dims flattened into one exchange group of 4, a 2-D shard
    // on both of them, uneven rows (7 over 2), and a param with an empty shard.
    R"json({"format": "hsdp-scenario/1", "name": "two shard dims",
      "mesh": {"shape": [2, 2, 2], "dim_names": ["dp_replicate", "dp_shard", "cp"]},
      "options": {"gather_strategy": "all-to-all", "alignment_bytes": 16},
      "params": [
        {"name": "a", "shape": [8, 6], "dtype": "f32", "placements": ["R", "S(0)", "S(1)"]},
        {"name": "b", "shape": [7, 5], "dtype": "bf16", "placements": ["R", "S(0)", "S(0)"]},
        {"name": "c", "shape": [3, 4], "dtype": "f16", "placements": ["R", "S(0)", "S(0)"]},
        {"name": "d", "shape": [5, 9], "dtype": "f64", "placements": ["R", "S(1)", "S(0)"]}]})json",
    // Strided shards and a batch cap: several exchanges per group.
    R"json({"format": "hsdp-scenario/1", "name": "strided",
      "mesh": {"shape": [2, 3], "dim_names": ["dp_replicate", "dp_shard"]},
      "options": {"gather_strategy": "all-to-all", "max_batch_numel": 60, "alignment_bytes": 32},
      "params": [
        {"name": "s", "shape": [12, 4], "dtype": "bf16", "placements": ["R", "SS(0,2)"]},
        {"name": "t", "shape": [5, 7], "dtype": "f32", "placements": ["R", "S(1)"]},
        {"name": "u", "shape": [2, 3, 4], "dtype": "f32", "placements": ["R", "S(0)"]},
        {"name": "v", "shape": [6, 6], "dtype": "f32", "placements": ["R", "S(0)"], "requires_grad": false}]})json",
    // A permuted mesh: group order (ascending ranks) differs from mesh order.
    R"json({"format": "hsdp-scenario/1", "name": "permuted",
      "meshes": {"m": {"shape": [2, 2], "dim_names": ["dp_shard", "tp"], "ranks": [3, 1, 2, 0]}},
      "options": {"gather_strategy": "all-to-all"},
      "params": [
        {"name": "p", "shape": [6, 5], "dtype": "f32", "mesh": "m", "placements": ["S(0)", "S(1)"]},
        {"name": "q", "shape": [9, 3], "dtype": "bf16", "mesh": "m", "placements": ["S(0)", "R"]}]})json",
};

}  // namespace

class TestGatherStrategies : public QObject {
    Q_OBJECT
private slots:
    void everyScenarioVerifies_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("option");
        for (const QString& f : hsdp::testing::sanitizerScenarioPaths())
            for (auto option : {GatherStrategyOption::AllToAll, GatherStrategyOption::Auto})
                QTest::newRow(qPrintable(QFileInfo(f).fileName() + " " +
                                         QString::fromLatin1(gatherStrategyOptionName(option))))
                    << f << int(option);
    }
    void everyScenarioVerifies() {
        QFETCH(QString, file);
        QFETCH(int, option);
        Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = planWith(scenario, GatherStrategyOption(option));
        if (GatherStrategyOption(option) == GatherStrategyOption::AllToAll) {
            const int gathered = int(std::count_if(plan.groups.begin(), plan.groups.end(),
                                                   [](const Group& g) { return isGathered(g); }));
            QCOMPARE(exchangedGroups(plan), gathered);
        }
        checkRun(scenario, plan);
    }

    void handBuiltLayoutsVerify_data() {
        QTest::addColumn<QString>("json");
        for (const char* layout : kLayouts)
            QTest::newRow(qPrintable(QString::fromStdString(readScenario(layout).name)))
                << QString::fromUtf8(layout);
    }
    void handBuiltLayoutsVerify() {
        QFETCH(QString, json);
        const Scenario scenario = readScenario(json.toStdString());
        const Plan plan = makePlan(scenario);
        QVERIFY(exchangedGroups(plan) > 0);
        checkRun(scenario, plan);
    }

    // Fewer bytes on the wire than the reference design, for the same result.
    void allToAllMovesLessThanAllGather() {
        Scenario scenario =
            readScenarioFile(hsdp::testing::sample("llama3_8b_hsdp_2x4.json").toStdString());
        const RunResult gathered =
            runPlan(scenario, planWith(scenario, GatherStrategyOption::AllGather), testOptions());
        const RunResult exchanged =
            runPlan(scenario, planWith(scenario, GatherStrategyOption::AllToAll), testOptions());
        QVERIFY(gathered.verified && exchanged.verified);
        QVERIFY2(exchanged.bytes * 2 < gathered.bytes,
                 qPrintable(QString("all-to-all %1 B, all-gather %2 B")
                                .arg(exchanged.bytes)
                                .arg(gathered.bytes)));
    }

    // Reference mode runs the reference's algorithm whatever the option says.
    void referenceModeIgnoresTheStrategy() {
        Scenario scenario = readScenario(kLayouts[0]);
        const Plan exchanged = planWith(scenario, GatherStrategyOption::AllToAll);
        const Plan gathered = planWith(scenario, GatherStrategyOption::AllGather);
        const RunResult a = runPlan(scenario, exchanged, testOptions(RunMode::Reference));
        const RunResult b = runPlan(scenario, gathered, testOptions(RunMode::Reference));
        QCOMPARE(failedParams(a), failedParams(b));
        QVERIFY(!failedParams(a).empty());  // the uneven rows defeat the reference
        QCOMPARE(a.collectives, b.collectives);
        for (const TraceEvent& e : a.trace.events) QVERIFY(e.op != "all_to_all_v");
    }

    // auto takes, per group, the strategy its estimate says is faster, and says so.
    void autoTakesThePredictedFaster() {
        Scenario scenario =
            readScenarioFile(hsdp::testing::sample("mixtral_8x7b_expert_mesh.json").toStdString());
        const Plan plan = planWith(scenario, GatherStrategyOption::Auto);
        const auto estimates = estimateGatherStrategies(scenario, plan, defaultStrategyCluster());
        QVERIFY(!estimates.empty());
        for (const auto& e : estimates) {
            const Group& g = plan.groups[size_t(e.group)];
            QVERIFY(g.gatherStrategyAuto);
            QVERIFY(e.allGatherSeconds > 0 && e.allToAllSeconds > 0);
            QCOMPARE(g.gatherStrategy, e.allToAllSeconds < e.allGatherSeconds
                                           ? GatherStrategy::AllToAll
                                           : GatherStrategy::AllGather);
            QVERIFY2(QString::fromStdString(g.gatherStrategyWhy).startsWith("auto on loopback"),
                     g.gatherStrategyWhy.c_str());
        }
        // On a real cluster's links the same plan may choose otherwise, but always the faster.
        Plan onH100 = makePlan(scenario);
        chooseGatherStrategies(scenario, onH100, readClusterPreset("h100-dgx"), "h100-dgx");
        for (const auto& e :
             estimateGatherStrategies(scenario, onH100, readClusterPreset("h100-dgx")))
            QCOMPARE(onH100.groups[size_t(e.group)].gatherStrategy,
                     e.allToAllSeconds < e.allGatherSeconds ? GatherStrategy::AllToAll
                                                            : GatherStrategy::AllGather);
    }

    // makePlan alone leaves "auto" unweighed: runPlan and costPlan refuse
    // such a plan, naming the group, instead of gathering all-gather without
    // a word; planScenario settles it (on loopback unless given a cluster),
    // as chooseGatherStrategies does.
    void anUnsettledPlanIsRefused() {
        Scenario scenario =
            readScenarioFile(hsdp::testing::sample("teaching_2x2.json").toStdString());
        scenario.options.gatherStrategy = GatherStrategyOption::Auto;
        const Plan raw = makePlan(scenario);
        auto refused = [&](auto&& call) {
            try {
                call();
            } catch (const std::invalid_argument& error) {
                return std::string(error.what());
            }
            return std::string();
        };
        const std::string run = refused([&] { (void)runPlan(scenario, raw, testOptions()); });
        QVERIFY2(run.find("runPlan: group ") != std::string::npos &&
                     run.find("not yet weighed") != std::string::npos,
                 run.c_str());
        const std::string cost =
            refused([&] { (void)costPlan(scenario, raw, defaultStrategyCluster()); });
        QVERIFY2(cost.find("costPlan: group ") != std::string::npos, cost.c_str());
        const Plan settled = planScenario(scenario);
        QCOMPARE(planToJson(settled, scenario).dump(),
                 planToJson(planWith(scenario, GatherStrategyOption::Auto), scenario).dump());
        QVERIFY(runPlan(scenario, settled, testOptions()).verified);
        const Cluster h100 = readClusterPreset("h100-dgx");
        for (const Group& g : planScenario(scenario, &h100).groups)
            if (g.gatherStrategyAuto)
                QVERIFY2(QString::fromStdString(g.gatherStrategyWhy).startsWith("auto on h100-dgx"),
                         g.gatherStrategyWhy.c_str());
        // An explicit strategy needs no weighing.
        scenario.options.gatherStrategy = GatherStrategyOption::AllToAll;
        QVERIFY(runPlan(scenario, makePlan(scenario), testOptions()).verified);
    }
};

QTEST_APPLESS_MAIN(TestGatherStrategies)
#include "tst_gather_strategies.moc"
