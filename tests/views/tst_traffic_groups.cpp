// SPDX-License-Identifier: Apache-2.0
// The Traffic view's rows by process group for a run under the all-to-all
// gather strategy: an exchange runs over every shard mesh dim at once, so
// its row names those dims as one group instead of a mesh dim it has not.
#include <QtTest>

#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"
#include "derived/run/run_steps.h"
#include "derived/run/traffic_stats.h"
#include "run/runner.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

constexpr const char* kTwoShardDims = R"json({"format": "hsdp-scenario/1", "name": "flattened",
  "mesh": {"shape": [2, 2, 2], "dim_names": ["dp_replicate", "dp_shard", "cp"]},
  "options": {"gather_strategy": "all-to-all"},
  "params": [
    {"name": "a", "shape": [8, 6], "dtype": "f32", "placements": ["R", "S(0)", "S(1)"]},
    {"name": "b", "shape": [7, 5], "dtype": "bf16", "placements": ["R", "S(0)", "S(0)"]}]})json";

}  // namespace

class TestTrafficGroups : public QObject {
    Q_OBJECT
private slots:
    void anExchangeRowNamesItsDims() {
        const PlanResult plan = computePlanResult(readScenario(kTwoShardDims));
        const RunResult run = runPlan(*plan.scenario, *plan.plan, RunOptions{});
        QVERIFY2(run.verified, run.error.c_str());
        const TrafficStats stats =
            trafficStats(runSteps(run.trace), run.trace, plan.scenario.get());
        int64_t exchanged = 0, all = 0;
        for (const TraceEvent& e : run.trace.events) {
            if (isCompute(e)) continue;
            all += e.bytes;
            if (e.op == "all_to_all_v") exchanged += e.bytes;
        }
        QVERIFY(exchanged > 0);
        bool found = false;
        int64_t rows = 0;
        for (const TrafficRow& row : stats.byDim) {
            QVERIFY2(!row.key.contains("no mesh dim"), qPrintable(row.key));
            rows += row.wireBytes;
            if (row.key == QStringLiteral("main dp_shard×cp (dims 1, 2 as one group)")) {
                found = true;
                QCOMPARE(row.wireBytes, exchanged);
            }
        }
        QVERIFY(found);
        QCOMPARE(rows, all);
    }
};

QTEST_MAIN(TestTrafficGroups)
#include "tst_traffic_groups.moc"
