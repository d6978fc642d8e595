// SPDX-License-Identifier: Apache-2.0
// The cost model's schedule is the runner's: for every sample and worked
// example, each rank's predicted collectives are the collectives its real
// run made over Gloo, in order, with the same op, group, phase, step, mesh
// dim and wire bytes.
#include <QtTest>

#include "cost/step_schedule.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

QString describe(const TraceEvent& e) {
    QStringList ranks;
    for (int r : e.groupRanks) ranks << QString::number(r);
    return QStringLiteral("%1 %2 step %3 tp %4 dim %5 [%6] %7 B")
        .arg(QString::fromStdString(e.op), QString::fromStdString(e.label.phase))
        .arg(e.label.scheduleIndex)
        .arg(e.label.tpTransition)
        .arg(e.label.meshDim)
        .arg(ranks.join(','))
        .arg(e.bytes);
}

QString describe(const StepSchedule& s, const ScheduledCollective& c, int rank) {
    QStringList ranks;
    for (int r : s.groups[size_t(c.group)]) ranks << QString::number(r);
    const bool tp = c.phase == StepPhase::Tp;
    return QStringLiteral("%1 %2 step %3 tp %4 dim %5 [%6] %7 B")
        .arg(QString::fromStdString(std::string(traceNameOf(c.op))),
             QString::fromStdString(std::string(stepPhaseName(c.phase))))
        .arg(tp ? -1 : c.scheduleIndex)
        .arg(c.tpTransition)
        .arg(c.meshDim)
        .arg(ranks.join(','))
        .arg(s.traceBytes(c, rank));
}

QStringList scenarioFiles() {
    QStringList files;
    for (const QString& dir :
         {hsdp::testing::sample(), QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/")})
        for (const QString& f : QDir(dir).entryList({"*.json"}, QDir::Files, QDir::Name))
            if (!f.contains("expected-plan")) files << QDir(dir).filePath(f);
    return files;
}

}  // namespace

class TestStepSchedule : public QObject {
    Q_OBJECT
private slots:
    void matchesTheRun_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : scenarioFiles())
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

        std::vector<std::vector<const TraceEvent*>> byRank(size_t(scenario.worldSize));
        for (const auto& e : run.trace.events) byRank[size_t(e.rank)].push_back(&e);
        int64_t compared = 0;
        for (int r = 0; r < scenario.worldSize; ++r) {
            QStringList predicted, measured;
            for (const auto& w : schedule.ranks[size_t(r)])
                if (w.kind == WorkKind::Collective)
                    predicted << describe(schedule, schedule.collectives[size_t(w.collective)], r);
            for (const auto* e : byRank[size_t(r)]) measured << describe(*e);
            QCOMPARE(predicted.size(), measured.size());
            for (int i = 0; i < predicted.size(); ++i)
                QVERIFY2(predicted[i] == measured[i],
                         qPrintable(QStringLiteral("rank %1, collective %2: predicted %3, ran %4")
                                        .arg(r)
                                        .arg(i)
                                        .arg(predicted[i], measured[i])));
            compared += predicted.size();
        }
        QVERIFY(compared == run.rankEvents);
    }
};

QTEST_GUILESS_MAIN(TestStepSchedule)
#include "tst_step_schedule.moc"
