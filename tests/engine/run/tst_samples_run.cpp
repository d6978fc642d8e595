// SPDX-License-Identifier: Apache-2.0
// Every sample executed for real over Gloo: corrected mode verifies, and
// reference mode fails on exactly the parameters docs/plan.md §6 flags as hazards.
#include <QtTest>

#include <set>

#include "plan/planner.h"
#include "run/runner.h"
#include "run_budget.h"
#include "runtime_test_util.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::failedParams;

namespace {

const std::set<std::string> kHazardCodes = {"uneven-shard", "nested-shard-order",
                                            "strided-shard-chunk", "shard-rank-order"};

std::set<int> hazardParams(const Plan& plan) {
    std::set<int> out;
    for (const auto& d : plan.diagnostics)
        if (kHazardCodes.count(d.code)) out.insert(d.params.begin(), d.params.end());
    return out;
}

}  // namespace

class TestSamplesRun : public QObject {
    Q_OBJECT
private slots:
    void sample_data() {
        QTest::addColumn<QString>("file");
        QDir dir(hsdp::testing::sample());
        for (const QString& f : dir.entryList({"*.json"}, QDir::Files))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void sample() {
        QFETCH(QString, file);
        Scenario scenario = readScenarioFile(file.toStdString());
        Plan plan = makePlan(scenario);

        RunResult corrected = runPlan(scenario, plan, hsdp::testing::budgetedRunOptions({}));
        QVERIFY2(corrected.error.empty(), corrected.error.c_str());
        QVERIFY2(failedParams(corrected).empty(), "corrected mode left mismatches");
        // docs/cli.md's rule: error diagnostics in the plan block VERIFIED, as they
        // make `plan` exit 1 (diagnostics_tour, replica_count_indivisible).
        QCOMPARE(corrected.verified, !plan.hasErrors());
        QCOMPARE(corrected.planErrors.empty(), !plan.hasErrors());
        QCOMPARE(corrected.params.size() + corrected.notRun.size(), scenario.params.size());
        QCOMPARE(corrected.notRun.size(), plan.rejectedParams.size());

        RunOptions reference;
        reference.mode = RunMode::Reference;
        RunResult wrong = runPlan(scenario, plan, hsdp::testing::budgetedRunOptions(reference));
        QCOMPARE(failedParams(wrong), hazardParams(plan));
        QCOMPARE(wrong.verified, hazardParams(plan).empty() && !plan.hasErrors());
    }
};

QTEST_APPLESS_MAIN(TestSamplesRun)
#include "tst_samples_run.moc"
