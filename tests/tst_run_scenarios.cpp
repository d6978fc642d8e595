#include <QtTest>

#include <chrono>

#include "exec/runner.h"
#include "plan/planner.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

Scenario example(const QString& name) {
    return readScenarioFile(QString(HSDP_SHARED_DIR "/spec/examples/%1.scenario.json").arg(name).toStdString());
}

RunResult runScenario(const Scenario& s, RunMode mode) {
    RunOptions options;
    options.mode = mode;
    options.timeout = std::chrono::milliseconds(30000);
    return runPlan(s, makePlan(s), options);
}

QString describe(const RunResult& r) {
    QStringList out;
    for (const auto& p : r.params)
        out << QString("%1 %2: gather %3 step %4 replicas %5 %6")
                   .arg(p.index)
                   .arg(QString::fromStdString(p.name))
                   .arg(QString::fromStdString(std::string(gatherVerdictName(p.gather))))
                   .arg(QString::fromStdString(std::string(stepVerdictName(p.step))))
                   .arg(QString::fromStdString(std::string(replicaVerdictName(p.replicas))))
                   .arg(QString::fromStdString(p.detail));
    for (const auto& t : r.tpTransitions)
        out << QString("tp %1 %2 [%3]: %4 %5")
                   .arg(t.index)
                   .arg(QString::fromStdString(t.name))
                   .arg(QString::fromStdString(t.path))
                   .arg(QString::fromStdString(std::string(stepVerdictName(t.result))))
                   .arg(QString::fromStdString(t.detail));
    if (!r.error.empty()) out << "error: " + QString::fromStdString(r.error);
    return out.join("\n");
}

}  // namespace

class TestRunScenarios : public QObject {
    Q_OBJECT
private slots:
    void correctedVerifies_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("teaching_2x2") << "teaching_2x2";
        QTest::newRow("fsdp_tp_hazards") << "fsdp_tp_hazards";
        QTest::newRow("batches_and_replica_split") << "batches_and_replica_split";
    }
    void correctedVerifies() {
        QFETCH(QString, name);
        const Scenario s = example(name);
        const auto started = std::chrono::steady_clock::now();
        RunResult r = runScenario(s, RunMode::Corrected);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        qInfo("%s: corrected run %.2f s (runPlan says %.2f s), %lld collectives, %lld bytes", qPrintable(name), secs,
              r.seconds, (long long)r.collectives, (long long)r.bytes);
        QVERIFY2(r.verified, qPrintable(describe(r)));
        QVERIFY(r.collectives > 0);
        QCOMPARE(int(r.params.size()), int(s.params.size()));
        QCOMPARE(r.trace.events.size(), size_t(r.collectives));
    }

    void referenceShowsTheHazards() {
        const Scenario s = example("fsdp_tp_hazards");
        RunResult r = runScenario(s, RunMode::Reference);
        qInfo("%s", qPrintable(describe(r)));
        QVERIFY(!r.verified);
        QVERIFY(r.error.empty());
        QList<int> failed;
        for (const auto& p : r.params) {
            const bool ok = p.step == StepVerdict::Exact &&
                            (p.gather == GatherVerdict::Exact || p.gather == GatherVerdict::NotGathered);
            if (!ok) {
                failed << p.index;
                QVERIFY2(!p.detail.empty(), qPrintable(QString::number(p.index)));
            }
        }
        QCOMPARE(failed, (QList<int>{0, 1, 3}));
        for (const auto& t : r.tpTransitions) QCOMPARE(t.result, StepVerdict::Exact);
    }
};

QTEST_APPLESS_MAIN(TestRunScenarios)
#include "tst_run_scenarios.moc"
