// SPDX-License-Identifier: Apache-2.0
// The cost model's schedule is the runner's: for every sample and worked
// example, each rank's predicted collectives are the collectives its real
// run made over Gloo, in order, with the same op, group, phase, step, mesh
// dim and wire bytes.
#include <QtTest>

#include "cost/step_schedule.h"
#include "cost/trace_match.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {}  // namespace

class TestStepSchedule : public QObject {
    Q_OBJECT
private slots:
    void matchesTheRun_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : hsdp::testing::scenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    void matchesTheRun() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = makePlan(scenario);
        // HSDP_RUN_BUDGET_DIVISOR (the sanitizer presets) shrinks the run
        // further: the same collectives on smaller buffers, predicted alike.
        RunOptions options;
        if (const int divisor = qEnvironmentVariableIntValue("HSDP_RUN_BUDGET_DIVISOR");
            divisor > 1) {
            options.maxBytes /= divisor;
            options.flopBudget /= divisor;
        }
        const ShrinkDecision shapes =
            decideShrink(scenario, plan, options.maxBytes, options.flopBudget);
        const StepSchedule schedule =
            stepSchedule(scenario, plan, shapes.paramShapes, shapes.tpShapes);
        const RunResult run = runPlan(scenario, plan, options);
        QVERIFY2(run.error.empty(), run.error.c_str());

        // The comparison is core's (cost/trace_match.h), which run --cluster
        // uses to time each collective against its prediction.
        const ScheduleTraceMatch match = matchScheduleToTrace(schedule, run.trace);
        QStringList problems;
        for (const auto& m : match.mismatches) problems << QString::fromStdString(m);
        QVERIFY2(match.matches(), qPrintable(problems.join("\n")));
        const int64_t compared = int64_t(match.pairs.size());
        QVERIFY(compared == run.rankEvents);
    }
};

QTEST_GUILESS_MAIN(TestStepSchedule)
#include "tst_step_schedule.moc"
