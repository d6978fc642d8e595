// SPDX-License-Identifier: Apache-2.0
// A run connects only the process groups its collectives use (usedGroups),
// and says what that costs in sockets before it connects.
#include <QtTest>

#include <QTemporaryDir>

#include <algorithm>
#include <set>

#include "cli_process.h"
#include "distributed/socket_shortfall.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/used_groups.h"
#include "runtime/file_limits.h"
#include "runtime/group_set.h"
#include "scenario/reader.h"
#include "types/declared_groups.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

QString scaleData(const char* name) {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/scale/") + name;
}

std::set<std::vector<int>> sorted(std::vector<std::vector<int>> groups) {
    std::set<std::vector<int>> out;
    for (auto& g : groups) {
        std::sort(g.begin(), g.end());
        out.insert(std::move(g));
    }
    return out;
}

// What every run connected before usedGroups: the world and every mesh-dim group.
long socketsWithEveryGroup(const Scenario& scenario) {
    return estimateFileDescriptors(normalizeGroups(declaredGroups(scenario), scenario.worldSize)) +
           256;
}

}  // namespace

class TestUsedGroups : public QObject {
    Q_OBJECT
private slots:
    void scenario_data() {
        QTest::addColumn<QString>("file");
        QDir samples(sample());
        for (const QString& f : samples.entryList({"*.json"}, QDir::Files))
            QTest::newRow(qPrintable(f)) << samples.filePath(f);
        QDir scale(HSDP_SOURCE_DIR "/tests/data/scale");
        for (const QString& f : scale.entryList({"*.json"}, QDir::Files))
            QTest::newRow(qPrintable(f)) << scale.filePath(f);
    }

    // Every used group is a mesh-dim group; the world is never connected, so
    // every run needs fewer sockets than before (tst_samples_run shows the
    // runs still verify with only these groups: a group left out would fail).
    void scenario() {
        QFETCH(QString, file);
        const Scenario scenario = readScenarioFile(file.toStdString());
        const Plan plan = makePlan(scenario);
        const auto declared = sorted(declaredGroups(scenario));
        for (RunMode mode : {RunMode::Corrected, RunMode::Reference}) {
            const auto used = sorted(usedGroups(scenario, plan, mode));
            for (const auto& g : used) QVERIFY2(declared.count(g), groupKey(g).c_str());
            RunOptions options;
            options.mode = mode;
            const SocketEstimate estimate = runSocketEstimate(scenario, plan, options);
            QCOMPARE(estimate.groups, int(used.size()));
            QVERIFY(estimate.sockets < socketsWithEveryGroup(scenario));
            qInfo("%s: %d groups, about %ld sockets (every group and the world: %ld)",
                  scenario.name.c_str(), estimate.groups, estimate.sockets,
                  socketsWithEveryGroup(scenario));
        }
    }

    // Transitions along tp only: the dp groups are never connected.
    void unusedMeshDimIsNotConnected() {
        const Scenario scenario = readScenarioFile(scaleData("tp_only_2x4.json").toStdString());
        const Plan plan = makePlan(scenario);
        const Mesh& mesh = scenario.meshes.front();
        QCOMPARE(sorted(usedGroups(scenario, plan, RunMode::Corrected)),
                 sorted(mesh.groupsAlong(1)));
        QCOMPARE(runSocketEstimate(scenario, plan, {}).groups, 2);
        const RunResult result = runPlan(scenario, plan, {});
        QVERIFY2(result.verified, result.error.c_str());
    }

    // The 2x64 mesh needed about 40,960 sockets in one process; now it fits
    // this machine's usual 20,000-file limit.
    void hsdp2x64FitsTheUsualLimit() {
        const Scenario scenario = readScenarioFile(scaleData("hsdp_2x64.json").toStdString());
        const Plan plan = makePlan(scenario);
        QVERIFY(socketsWithEveryGroup(scenario) > 40000);
        QVERIFY(runSocketEstimate(scenario, plan, {}).sockets < 20000);
    }

    // Below the estimate the run is refused before connecting, as bad usage
    // (exit 2): both figures, the soft and hard limits, the --procs N that
    // fits, and no ulimit -n above the hard limit (it cannot be set).
    void tooLowALimitNamesFiguresAndFixes() {
        const QString command =
            QStringLiteral("ulimit -n 1000 && exec '" HSDP_BINARY_DIR "/bin/hsdp-inspect' run '%1'")
                .arg(scaleData("hsdp_2x64.json"));
        const auto r = runProgram("/bin/sh", {"-c", command}, 60000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const Scenario scenario = readScenarioFile(scaleData("hsdp_2x64.json").toStdString());
        const Plan plan = makePlan(scenario);
        const auto estimate = runSocketEstimate(scenario, plan, {});
        const QByteArray needed = QByteArray::number(qlonglong(estimate.sockets));
        for (const QByteArray& part :
             {"about " + needed + " sockets needed for 66 process groups",
              QByteArray("over the open-file limit 1000"), QByteArray("soft 1000, hard 1000"),
              QByteArray("what fits: --procs ")})
            QVERIFY2(r.err.contains(part), r.err.constData());
        QVERIFY2(!r.err.contains("ulimit -n " + needed), r.err.constData());
    }

    // Runs that connect without `run`'s check first (a worker started by
    // hand, the studio, report --run) fail in runWorld; its message, too,
    // never suggests a ulimit -n above the hard limit.
    void workerOverTheLimitSuggestsNoImpossibleUlimit() {
        QTemporaryDir store;
        const QString command =
            QStringLiteral("ulimit -n 300 && exec '" HSDP_BINARY_DIR
                           "/bin/hsdp-inspect' worker '%1' --store '%2' --procs 1 --proc 0 "
                           "--merge")
                .arg(sample("llama3_70b_hsdp_tp_2x4x4.json"), store.path());
        const auto r = runProgram("/bin/sh", {"-c", command}, 60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("but the open-file limit is 300, the hard limit, which only root "
                                "can raise: split the run over worker processes"),
                 r.out.constData());
        QVERIFY2(!r.out.contains("ulimit -n"), r.out.constData());
    }

    // ulimit -n is suggested only where a process can set it: at most the
    // hard limit; above it the message says that only root can raise it.
    void ulimitIsSuggestedOnlyUnderTheHardLimit() {
        SocketShortfall s;
        s.asked.sockets = 5000;
        s.asked.groups = 12;
        s.asked.limit = 1024;
        s.started = s.now = FileLimits{1024, 8192, 1048576};
        s.fittingProcs = 3;
        s.fittingSockets = 1000;
        const std::string under = socketShortfallText(s);
        QVERIFY2(under.find("ulimit -n 5000 (under the hard limit 8192)") != std::string::npos,
                 under.c_str());
        QVERIFY2(under.find("what fits: --procs 3") != std::string::npos, under.c_str());
        s.asked.sockets = 1659072;  // above Linux's usual fs.nr_open: no one can set it
        const std::string above = socketShortfallText(s);
        QVERIFY2(above.find("ulimit -n 1659072") == std::string::npos, above.c_str());
        QVERIFY2(above.find("above the hard limit 8192") != std::string::npos, above.c_str());
        QVERIFY2(above.find("above fs.nr_open (1048576)") != std::string::npos, above.c_str());
    }
};

QTEST_GUILESS_MAIN(TestUsedGroups)
#include "tst_used_groups.moc"
