// A run connects only the process groups its collectives use (usedGroups),
// and says what that costs in sockets before it connects.
#include <QtTest>

#include <algorithm>
#include <set>

#include "cli_process.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "run/used_groups.h"
#include "runtime/group_set.h"
#include "scenario/reader.h"

using namespace hsdp;

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
        QDir samples(HSDP_SOURCE_DIR "/samples");
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

    // Below the estimate the run is refused before connecting, naming both
    // figures and both fixes.
    void tooLowALimitNamesFiguresAndFixes() {
        const QString command =
            QStringLiteral("ulimit -n 1000 && exec '" HSDP_BINARY_DIR "/bin/hsdp-inspect' run '%1'")
                .arg(scaleData("hsdp_2x64.json"));
        const auto r = runProgram("/bin/sh", {"-c", command}, 60000);
        QCOMPARE(r.exitCode, 1);
        const Scenario scenario = readScenarioFile(scaleData("hsdp_2x64.json").toStdString());
        const auto estimate = runSocketEstimate(scenario, makePlan(scenario), {});
        const QByteArray needed = QByteArray::number(qlonglong(estimate.sockets));
        QVERIFY2(r.err.contains("connecting 66 process groups: about " + needed + " sockets"),
                 r.err.constData());
        for (const QByteArray& part : {"about " + needed + " sockets needed for 66 process groups",
                                       QByteArray("the open-file limit is 1000"),
                                       "ulimit -n " + needed, QByteArray("--procs")})
            QVERIFY2(r.out.contains(part), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestUsedGroups)
#include "tst_used_groups.moc"
