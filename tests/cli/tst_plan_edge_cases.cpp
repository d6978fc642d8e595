// SPDX-License-Identifier: Apache-2.0
// Edge cases of `hsdp-inspect plan` as a user meets them: odd but valid
// scenarios plan cleanly (exit 0/1, JSON on stdout, nothing on stderr), broken
// inputs exit 2 with a message naming the culprit and nothing on stdout, and
// nothing crashes, in either output format.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <unistd.h>

#include "cli_process.h"
#include "sanitizers.h"

using namespace hsdp::testing;

namespace {

const QByteArray kHead = R"j("format": "hsdp-scenario/1", "name": "edge")j";

QByteArray scenario(const QByteArray& members) {
    return "{" + kHead + ", " + members + "}";
}

QByteArray oneParam(const QByteArray& shape, const QByteArray& placements) {
    return scenario(R"j("mesh": {"shape": [2, 2]}, "params": [{"name": "a", "shape": )j" + shape +
                    R"j(, "dtype": "f32", "placements": )j" + placements + "}]");
}

QJsonObject parsed(const CliOutcome& r) {
    return QJsonDocument::fromJson(r.out).object();
}

QList<int> ints(const QJsonValue& v) {
    QList<int> out;
    for (const auto& x : v.toArray()) out << x.toInt();
    return out;
}

}  // namespace

class TestPlanEdgeCases : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(dir_.isValid()); }

    void validScenariosPlan_data();
    void validScenariosPlan();
    void ranksOutsideEveryMeshOwnNothing();
    void scalarsAndUnitDims();
    void negativeShardDims();
    void veryLongNamesSurvive();
    void brokenInputsExitTwo_data();
    void brokenInputsExitTwo();
    void unreadableFiles();
    void outOfMemoryIsAMessageNotACrash();

private:
    QString write(const QString& name, const QByteArray& content) {
        QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(content);
        return path;
    }
    // Plans `content` in both formats; returns the JSON run.
    CliOutcome plan(const QByteArray& content, int expectedExit) {
        QString file = write("scenario.json", content);
        auto text = inspect({"plan", file});
        auto json = inspect({"plan", file, "--json"});
        [&] {
            QCOMPARE(text.exitCode, expectedExit);
            QVERIFY2(text.err.isEmpty(), text.err.constData());
            QVERIFY(!text.out.isEmpty());
            QCOMPARE(json.exitCode, expectedExit);
            QVERIFY2(json.err.isEmpty(), json.err.constData());
            QVERIFY(QJsonDocument::fromJson(json.out).isObject());
        }();
        return json;
    }

    QTemporaryDir dir_;
};

void TestPlanEdgeCases::validScenariosPlan_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("groups");
    QTest::newRow("no params key") << scenario(R"j("mesh": {"shape": [2, 2]})j") << 0 << 0;
    QTest::newRow("empty params, empty transitions")
        << scenario(R"j("mesh": {"shape": [2, 2]}, "params": [], "tp_transitions": [])j") << 0 << 0;
    QTest::newRow("all plain") << scenario(R"j("mesh": {"shape": [2, 2]}, "params": [
        {"name": "a", "shape": [4], "dtype": "f32"},
        {"name": "b", "shape": [4], "dtype": "f32", "placements": null, "requires_grad": false}])j")
                               << 0 << 0;
    QTest::newRow("mesh of one rank") << scenario(R"j("mesh": {"shape": [1]}, "params": [
        {"name": "w", "shape": [4, 4], "dtype": "f32", "placements": ["S(0)"]},
        {"name": "r", "shape": [3], "dtype": "f32", "placements": ["R"]}])j")
                                      << 0 << 2;
    QTest::newRow("partial on a param") << oneParam("[4, 4]", R"j(["P", "R"])j") << 1 << 0;
    QTest::newRow("TP shard dim outside the shape")
        << scenario(R"j("mesh": {"shape": [2], "dim_names": ["tp"]},
        "tp_transitions": [{"name": "t", "shape": [4], "dtype": "f32", "src": ["S(5)"], "dst": ["R"]}])j")
        << 1 << 0;
    QTest::newRow("BOM") << "\xEF\xBB\xBF" + scenario(R"j("mesh": {"shape": [2]})j") << 0 << 0;
}

void TestPlanEdgeCases::validScenariosPlan() {
    QFETCH(QByteArray, content);
    QFETCH(int, exitCode);
    QFETCH(int, groups);
    auto r = plan(content, exitCode);
    QCOMPARE(parsed(r).value("groups").toArray().size(), groups);
    QCOMPARE(parsed(r).value("schedule").toArray().isEmpty(), groups == 0);
}

void TestPlanEdgeCases::ranksOutsideEveryMeshOwnNothing() {
    // Ranks 1 and 2 are in no mesh, 6..8 beyond every mesh; the pure-shard group
    // (no replicate dim, owner ()) must not leak to them.
    auto r = plan(scenario(R"j("meshes": {"a": {"shape": [2, 2], "ranks": [0, 3, 4, 5]}},
        "world_size": 9, "params": [
        {"name": "w", "shape": [4, 4], "dtype": "f32", "placements": ["S(0)", "S(1)"]},
        {"name": "v", "shape": [4, 4], "dtype": "f32", "placements": ["R", "S(0)"]}])j"),
                  0);
    auto ranks = parsed(r).value("ranks").toArray();
    QCOMPARE(ranks.size(), 9);
    for (int outside : {1, 2, 6, 7, 8}) {
        QVERIFY2(ranks[outside].toObject().value("owned").toArray().isEmpty(),
                 qPrintable(QString("rank %1 owns something").arg(outside)));
        QCOMPARE(ranks[outside].toObject().value("owned_numel").toInt(), 0);
    }
    for (int inside : {0, 3, 4, 5})
        QVERIFY(ints(ranks[inside].toObject().value("owned")).contains(0));
}

void TestPlanEdgeCases::scalarsAndUnitDims() {
    auto r = plan(scenario(R"j("mesh": {"shape": [2, 2]}, "params": [
        {"name": "unit", "shape": [1, 4], "dtype": "f32", "placements": ["S(0)", "S(1)"]},
        {"name": "scale", "shape": [], "dtype": "f32", "placements": ["R", "R"]},
        {"name": "bad", "shape": [], "dtype": "f32", "placements": ["R", "S(-1)"]}])j"),
                  1);
    auto plan = parsed(r);
    QCOMPARE(ints(plan.value("rejected_params")), QList<int>{2});
    auto groups = plan.value("groups").toArray();
    QCOMPARE(groups.size(), 2);
    QCOMPARE(groups[1].toObject().value("layout").toObject().value("tensor_ndim").toInt(), 0);
    QCOMPARE(plan.value("params").toArray()[1].toObject().value("numel").toInt(), 1);
    bool uneven = false;
    for (const auto& d : plan.value("diagnostics").toArray())
        if (d.toObject().value("code") == "uneven-shard")
            uneven = ints(d.toObject().value("params")) == QList<int>{0};  // 1 row over 2 ranks
    QVERIFY(uneven);
}

void TestPlanEdgeCases::negativeShardDims() {
    auto ok = plan(oneParam("[4, 6]", R"j(["S(-2)", "SS(-1,2)"])j"), 0);
    auto axes = parsed(ok).value("groups").toArray()[0].toObject().value("layout").toObject().value(
        "shard_axes");
    QCOMPARE(axes.toArray()[0].toArray()[1].toInt(), 0);
    QCOMPARE(axes.toArray()[1].toArray()[1].toInt(), 1);
    auto bad = plan(oneParam("[4, 6]", R"j(["R", "S(-3)"])j"), 1);
    auto diagnostics = parsed(bad).value("diagnostics").toArray();
    QCOMPARE(diagnostics[0].toObject().value("code").toString(), QString("invalid-shard-dim"));
    QVERIFY(diagnostics[0].toObject().value("message").toString().contains(
        "Invalid shard dim -3 for tensor ndim 2"));
}

void TestPlanEdgeCases::veryLongNamesSurvive() {
    QByteArray name(200000, 'n');
    auto r = plan(scenario(R"j("mesh": {"shape": [2]}, "params": [{"name": ")j" + name +
                           R"j(", "shape": [4, 4], "dtype": "f32", "placements": ["P"]}])j"),
                  1);
    QCOMPARE(parsed(r).value("params").toArray()[0].toObject().value("name").toString().size(),
             name.size());
}

void TestPlanEdgeCases::brokenInputsExitTwo_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("named");
    QTest::newRow("placement list too short")
        << oneParam("[4, 4]", R"j(["S(0)"])j") << "/params/0/placements: expected 2 placements";
    QTest::newRow("unknown param mesh") << scenario(R"j("mesh": {"shape": [2]}, "params": [
        {"name": "a", "shape": [4], "dtype": "f32", "mesh": "nope", "placements": ["R"]}])j")
                                        << "/params/0/mesh: unknown mesh \"nope\"";
    QTest::newRow("unknown transition mesh")
        << scenario(R"j("mesh": {"shape": [2]}, "tp_transitions": [
        {"name": "t", "mesh": "nope", "shape": [4], "dtype": "f32", "src": ["R"], "dst": ["R"]}])j")
        << "/tp_transitions/0/mesh: unknown mesh \"nope\"";
    QTest::newRow("duplicate mesh name")
        << scenario(R"j("meshes": {"a": {"shape": [2]}, "a": {"shape": [4]}})j")
        << "/meshes/a: duplicate key \"a\"";
    QTest::newRow("rank beyond world size")
        << scenario(R"j("mesh": {"shape": [2], "ranks": [0, 5]}, "world_size": 3)j")
        << "/mesh/ranks/1: rank 5";
    QTest::newRow("trailing garbage") << scenario(R"j("mesh": {"shape": [2]})j") + " x"
                                      << "invalid JSON";
    QTest::newRow("NUL then garbage")
        << scenario(R"j("mesh": {"shape": [2]})j") + QByteArray(1, '\0') + "garbage"
        << "NUL byte";
    QTest::newRow("empty file") << QByteArray() << "cannot read the scenario: it is empty";
}

void TestPlanEdgeCases::brokenInputsExitTwo() {
    QFETCH(QByteArray, content);
    QFETCH(QString, named);
    QString file = write("broken.json", content);
    for (const QStringList& extra : {QStringList{"--json"}, QStringList{}}) {
        auto r = inspect(QStringList{"plan", file} + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.left(300).constData());
        QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(file) && err.contains(named), qPrintable(err));
    }
}

void TestPlanEdgeCases::unreadableFiles() {
    QString regular = write("regular.json", scenario(R"j("mesh": {"shape": [2]})j"));
    QList<QPair<QString, QString>> cases = {
        {dir_.path(), "it is a directory"},
        {regular + "/x.json", "cannot read the scenario: Not a directory"},
        {dir_.filePath("missing.json"), "No such file"}};
    // A read error after a successful open used to look like an empty file.
    if (QFile::exists("/proc/self/mem"))
        cases.append(qMakePair(QString("/proc/self/mem"), QString("cannot read the scenario")));
    if (geteuid() != 0) {  // root reads a mode-000 file anyway
        QString locked = write("locked.json", "{}");
        QFile::setPermissions(locked, QFileDevice::Permissions());
        cases.append(qMakePair(locked, QString("Permission denied")));
    }
    for (const auto& [path, named] : cases) {
        auto r = inspect({"plan", path, "--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(path) && err.contains(named), qPrintable(err));
    }
}

void TestPlanEdgeCases::outOfMemoryIsAMessageNotACrash() {
    // Valid but enormous: 2000 one-param batches x 65,536 owner coordinates.
    QString file = write("huge.json", scenario(R"j("mesh": {"shape": [65536]},
        "options": {"max_batch_numel": 1}, "params": [{"repeat": 2000, "params": [
        {"name": "a{i}", "shape": [4], "dtype": "f32", "placements": ["R"]}]}])j"));
    if (!QFile::exists("/bin/sh")) QSKIP("needs /bin/sh for ulimit");
#if HSDP_ADDRESS_SANITIZED
    QSKIP("AddressSanitizer reserves more address space than the limit allows");
#endif
    // 400 MB of address space: plenty for the tool, far too little for this plan.
    auto r = runProgram("/bin/sh", {"-c", "ulimit -v 400000 && exec \"$0\" plan \"$1\" --json",
                                    QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-inspect"), file});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("out of memory"), r.err.constData());
}

QTEST_GUILESS_MAIN(TestPlanEdgeCases)
#include "tst_plan_edge_cases.moc"
