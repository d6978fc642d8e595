// SPDX-License-Identifier: Apache-2.0
// Params on AdamW (params[].optimizer "adamw", issue 44): the planner leaves
// them out of grouping, owners, gathers and Newton–Schulz; each rank updates
// its own shard, and the run verifies every byte of it; both moments are
// counted resident, by the runner and the memory model alike; the cost
// model prices one elementwise update per rank and no Newton–Schulz; the plan
// names each param's optimizer, a Muon-only plan as before.
#include <QtTest>

#include <algorithm>
#include <set>

#include "accuracy/trace_match.h"
#include "cost/step_memory_model.h"
#include "cost/step_schedule.h"
#include "export/plan_json.h"
#include "export/plan_text.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run_budget.h"
#include "runtime_test_util.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::failedParams;

namespace {

// 2 x 2 HSDP: embed, norm, bias (a plain tensor) and a frozen AdamW param
// beside two Muon matrices, one of them gathered.
const char* kMixed = R"json({
  "format": "hsdp-scenario/1", "name": "adamw mixed",
  "mesh": {"shape": [2, 2], "dim_names": ["dp_replicate", "dp_shard"]},
  "params": [
    {"name": "embed", "shape": [16, 8], "dtype": "bf16", "placements": ["R", "S(0)"],
     "optimizer": "adamw"},
    {"name": "w1", "shape": [8, 8], "dtype": "bf16", "placements": ["R", "S(0)"]},
    {"name": "w2", "shape": [8, 16], "dtype": "bf16", "placements": ["R", "S(1)"],
     "optimizer": "muon"},
    {"name": "norm", "shape": [8], "dtype": "bf16", "placements": ["R", "R"],
     "optimizer": "adamw"},
    {"name": "bias", "shape": [6], "dtype": "f32", "optimizer": "adamw"},
    {"name": "frozen", "shape": [4, 4], "dtype": "bf16", "placements": ["R", "S(0)"],
     "optimizer": "adamw", "requires_grad": false}
  ]
})json";

// One [16, 8] f32 matrix over two ranks by rows, on `optimizer`.
std::string single(const char* optimizer) {
    return std::string(R"json({"format": "hsdp-scenario/1", "name": "one",
      "mesh": {"shape": [2], "dim_names": ["dp_shard"]},
      "params": [{"name": "w", "shape": [16, 8], "dtype": "f32", "placements": ["S(0)"],
                  "optimizer": ")json") +
           optimizer + "\"}]}";
}

RunOptions testOptions() {
    return hsdp::testing::budgetedRunOptions();
}

QString joined(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& l : lines) out << QString::fromStdString(l);
    return out.join('\n');
}

bool contains(const std::vector<int>& list, int value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

class TestAdamWParams : public QObject {
    Q_OBJECT
private slots:
    void readerTakesBothAndDefaultsToMuon() {
        const Scenario s = readScenario(kMixed);
        QCOMPARE(s.params[0].optimizer, ParamOptimizer::AdamW);
        QCOMPARE(s.params[1].optimizer, ParamOptimizer::Muon);  // the default
        QCOMPARE(s.params[2].optimizer, ParamOptimizer::Muon);
        QVERIFY(s.params[4].isAdamW());
        QVERIFY(hasAdamWParams(s));
        QVERIFY(!hasAdamWParams(readScenario(single("muon"))));
    }

    void planLeavesThemOutOfGroups() {
        const Scenario s = readScenario(kMixed);
        const Plan plan = makePlan(s);
        QCOMPARE(plan.adamwParams, (std::vector<int>{0, 3, 4, 5}));
        QVERIFY(plan.noCommParams.empty());
        QVERIFY(plan.rejectedParams.empty());
        std::set<int> grouped;
        for (const Group& g : plan.groups) {
            grouped.insert(g.params.begin(), g.params.end());
            for (const Batch& b : g.batches) {
                for (int p : plan.adamwParams) {
                    QVERIFY(!contains(b.params, p));
                    QVERIFY(!b.owner.count(p));
                    for (const ShardCompute& sc : b.shardCompute)
                        QVERIFY(!sc.computeCoord.count(p));
                }
            }
        }
        QCOMPARE(grouped, (std::set<int>{1, 2}));
        for (const Diagnostic& d : plan.diagnostics)
            for (int p : plan.adamwParams) QVERIFY2(!contains(d.params, p), d.code.c_str());
        for (const RankOwnership& r : plan.ranks) {
            for (int p : plan.adamwParams) {
                QVERIFY(!contains(r.owned, p));
                QVERIFY(!contains(r.computed, p));
            }
            // The trainable ones, their local elements: embed's 8 of 16 rows,
            // norm and bias whole; the frozen one only held.
            QCOMPARE(r.adamw, (std::vector<int>{0, 3, 4}));
            QCOMPARE(r.adamwNumel, 8 * 8 + 8 + 6);
        }
        // Held: the AdamW shards (frozen included) beside the Muon ones.
        const Plan muonOnly = makePlan(readScenario(R"json({"format": "hsdp-scenario/1",
          "name": "m", "mesh": {"shape": [2, 2], "dim_names": ["dp_replicate", "dp_shard"]},
          "params": [
            {"name": "w1", "shape": [8, 8], "dtype": "bf16", "placements": ["R", "S(0)"]},
            {"name": "w2", "shape": [8, 16], "dtype": "bf16", "placements": ["R", "S(1)"]}]})json"));
        for (size_t r = 0; r < plan.ranks.size(); ++r)
            QCOMPARE(plan.ranks[r].heldNumel, muonOnly.ranks[r].heldNumel + 8 * 8 + 8 + 6 + 2 * 4);
    }

    void aPartialAdamWParamIsRejected() {
        const Plan plan = makePlan(readScenario(R"json({"format": "hsdp-scenario/1", "name": "p",
          "mesh": {"shape": [2]}, "params": [{"name": "x", "shape": [4, 4], "dtype": "f32",
          "placements": ["P(sum)"], "optimizer": "adamw"}]})json"));
        QCOMPARE(plan.rejectedParams, std::vector<int>{0});
        QVERIFY(plan.adamwParams.empty());
    }

    // The run verifies every param, and the cost model saw it coming: the
    // same compute in the same order (one AdamW update per rank, no
    // Newton–Schulz on an AdamW param), the same memory on every rank.
    void runVerifiesAndTheModelsAgree() {
        const Scenario s = readScenario(kMixed);
        const Plan plan = makePlan(s);
        const RunResult run = runPlan(s, plan, testOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        QVERIFY(failedParams(run).empty());
        QVERIFY(run.verified);
        QCOMPARE(int(run.params.size()), int(s.params.size()));
        int adamwSpans = 0;
        for (const TraceEvent& e : run.trace.events) {
            if (!isCompute(e)) continue;
            if (e.op == "newton_schulz")
                for (int p : plan.adamwParams) QVERIFY(!contains(e.label.params, p));
            if (e.label.params == std::vector<int>{0, 3, 4}) {
                QCOMPARE(e.op, std::string("update"));
                QCOMPARE(e.label.phase, std::string("local"));
                ++adamwSpans;
            }
        }
        QCOMPARE(adamwSpans, s.worldSize);
        const StepSchedule schedule = stepSchedule(s, plan, run.paramShapes, run.tpShapes);
        const ComputeTraceMatch compute = matchComputeToTrace(schedule, run.trace);
        QVERIFY2(compute.matches(), qPrintable(joined(compute.mismatches)));
        const ScheduleTraceMatch collectives = matchScheduleToTrace(schedule, run.trace);
        QVERIFY2(collectives.matches(), qPrintable(joined(collectives.mismatches)));
        for (const auto& items : schedule.ranks) {
            int updates = 0;
            for (const RankWork& w : items) {
                if (w.kind == WorkKind::NewtonSchulz)
                    QVERIFY(!contains(plan.adamwParams, w.param()));
                if (w.kind == WorkKind::Update && w.phase == StepPhase::Local) {
                    // 78 elements: embed's 64 and norm's 8 in bf16, bias's 6 in f32; x 7.
                    QCOMPARE(w.amount, 7.0 * ((64 + 8) * 2 + 6 * 4));
                    ++updates;
                }
            }
            QCOMPARE(updates, 1);
        }
        const auto predicted = predictStepMemory(s, plan, run.paramShapes);
        for (const StepMemory& measured : run.memory)
            QVERIFY2(predicted[size_t(measured.rank)] == measured,
                     qPrintable(QString("rank %1: predicted %2, measured %3")
                                    .arg(measured.rank)
                                    .arg(predicted[size_t(measured.rank)].peakBytes)
                                    .arg(measured.peakBytes)));
    }

    // An AdamW param holds W, G and two moments (each at the dtype's size, as
    // Muon's one momentum), and needs no gather buffer or full matrix.
    void memoryCountsBothMoments() {
        const Scenario adamw = readScenario(single("adamw"));
        const Scenario muon = readScenario(single("muon"));
        const auto a = predictStepMemory(adamw, makePlan(adamw));
        const auto m = predictStepMemory(muon, makePlan(muon));
        const int64_t shard = 8 * 8 * 4;  // 8 of 16 rows, f32
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(a[size_t(r)].residentBytes, 4 * shard);
            QCOMPARE(m[size_t(r)].residentBytes, 3 * shard);
            QCOMPARE(a[size_t(r)].atPeak[size_t(MemoryKind::Momentum)], 2 * shard);
            QCOMPARE(a[size_t(r)].peakBytes, 4 * shard);  // nothing beside the resident
            QVERIFY(m[size_t(r)].peakBytes > 3 * shard);  // Muon gathers
        }
        const Plan plan = makePlan(adamw);
        const RunResult run = runPlan(adamw, plan, testOptions());
        QVERIFY2(run.error.empty(), run.error.c_str());
        QVERIFY(run.verified);
        QCOMPARE(run.collectives, int64_t(0));  // no communication at all
        for (const StepMemory& measured : run.memory) QVERIFY(measured == a[size_t(measured.rank)]);
    }

    void planSaysEachOptimizer() {
        const Scenario s = readScenario(kMixed);
        const Plan plan = makePlan(s);
        const auto json = planToJson(plan, s);
        QCOMPARE(json["adamw_params"].size(), size_t(4));
        QCOMPARE(json["params"][0]["optimizer"].get<std::string>(), std::string("adamw"));
        QCOMPARE(json["params"][1]["optimizer"].get<std::string>(), std::string("muon"));
        QCOMPARE(json["ranks"][0]["adamw"].size(), size_t(3));
        QCOMPARE(json["ranks"][0]["adamw_numel"].get<int64_t>(), int64_t(78));
        const QString text = QString::fromStdString(planToText(plan, s));
        QVERIFY2(text.contains("Params: 6 (2 grouped, 0 no-comm, 0 rejected, 4 AdamW"),
                 qPrintable(text));
        QVERIFY(text.contains("AdamW (optimizer adamw"));
        QVERIFY(text.contains("AdamW on 3 params (78 elements of its shards)"));
        // A Muon-only plan says nothing of optimizers.
        const Scenario m = readScenario(single("muon"));
        const auto muonJson = planToJson(makePlan(m), m);
        QVERIFY(!muonJson.contains("adamw_params"));
        QVERIFY(!muonJson["params"][0].contains("optimizer"));
        QVERIFY(!muonJson["ranks"][0].contains("adamw"));
        QVERIFY(!QString::fromStdString(planToText(makePlan(m), m)).contains("AdamW"));
    }
};

QTEST_GUILESS_MAIN(TestAdamWParams)
#include "tst_adamw_params.moc"
