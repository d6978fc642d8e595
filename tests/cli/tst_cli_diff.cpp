// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect diff as a user meets it: exit codes, streams, JSON, help.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QTemporaryDir>

#include "cli_process.h"
#include "sanitizers.h"

using namespace hsdp::testing;

namespace {

QJsonObject jsonOf(const QByteArray& bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

// A copy of a sample with `edit` applied, written into `dir`.
QString editedSample(const QTemporaryDir& dir, const char* name,
                     const std::function<void(QJsonObject&)>& edit) {
    QFile in(sample(name));
    in.open(QIODevice::ReadOnly);
    QJsonObject doc = jsonOf(in.readAll());
    edit(doc);
    QString path = dir.filePath(QString("edited_") + name);
    QFile out(path);
    out.open(QIODevice::WriteOnly);
    out.write(QJsonDocument(doc).toJson());
    return path;
}

// Param name -> owner coordinate text, read from an hsdp-plan/1 document.
QMap<QString, QString> ownersOf(const QJsonObject& plan) {
    QStringList names;
    for (const auto& p : plan["params"].toArray()) names << p.toObject()["name"].toString();
    QMap<QString, QString> out;
    for (const auto& g : plan["groups"].toArray())
        for (const auto& b : g.toObject()["batches"].toArray()) {
            QJsonObject owner = b.toObject()["owner"].toObject();
            for (auto it = owner.begin(); it != owner.end(); ++it)
                out[names[it.key().toInt()]] = QJsonDocument(it.value().toArray()).toJson();
        }
    return out;
}

// The Llama-3-70B scenario of `mesh` as `scenario --from-config` writes it
// (no batch cap), in `dir`; "" when it could not be written.
QString generated70b(const QTemporaryDir& dir, const QString& mesh) {
    const QString path = dir.filePath(mesh + QStringLiteral(".json"));
    auto r = inspect({"scenario", "--from-config",
                      HSDP_SOURCE_DIR "/tests/data/model_configs/llama3_70b.json", "--mesh", mesh,
                      "-o", path});
    return r.exitCode == 0 ? path : QString();
}

}  // namespace

class TestCliDiff : public QObject {
    Q_OBJECT
private slots:
    void sampleAgainstItselfExitsZero() {
        auto r = inspect({"diff", sample("teaching_2x2.json"), sample("teaching_2x2.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("same plan"));
        QVERIFY(r.err.isEmpty());
        auto j = inspect(
            {"diff", sample("diagnostics_tour.json"), sample("diagnostics_tour.json"), "--json"});
        QCOMPARE(j.exitCode, 0);
        QCOMPARE(jsonOf(j.out)["same"].toBool(), true);
    }

    void editedMeshExitsOneWithTheOwnersThatMoved() {
        QTemporaryDir dir;
        QString after = editedSample(dir, "teaching_2x2.json", [](QJsonObject& doc) {
            QJsonObject mesh = doc["mesh"].toObject();
            mesh["shape"] = QJsonArray{1, 4};
            doc["mesh"] = mesh;
        });
        QString before = sample("teaching_2x2.json");
        auto r = inspect({"diff", before, after, "--json"});
        QCOMPARE(r.exitCode, 1);
        QJsonObject diff = jsonOf(r.out);
        QCOMPARE(diff["format"].toString(), QString("hsdp-plan-diff/1"));
        QCOMPARE(diff["same"].toBool(), false);
        QCOMPARE(diff["after"].toString(), after);

        // Expected from the two plans, as `plan --json` prints them.
        auto ownersBefore = ownersOf(jsonOf(inspect({"plan", before, "--json"}).out));
        auto ownersAfter = ownersOf(jsonOf(inspect({"plan", after, "--json"}).out));
        QSet<QString> expected, reported;
        for (auto it = ownersAfter.begin(); it != ownersAfter.end(); ++it)
            if (ownersBefore.value(it.key()) != it.value()) expected.insert(it.key());
        for (const auto& p : diff["params"].toObject()["changed"].toArray())
            if (p.toObject()["changes"].toArray().contains("owner"))
                reported.insert(p.toObject()["name"].toString());
        QVERIFY(!expected.isEmpty());
        QCOMPARE(reported, expected);
        QJsonObject mesh = diff["meshes"].toArray()[0].toObject();
        QCOMPARE(mesh["after"].toObject()["shape"].toArray(), (QJsonArray{1, 4}));

        auto text = inspect({"diff", before, after});
        QCOMPARE(text.exitCode, 1);
        QVERIFY(text.out.contains("Owners moved"));
    }

    // The same scenario with every param twice as large along each dim must
    // take longer and peak higher; each side's figures are the ones `plan
    // --cluster` reports for that file.
    void clusterCostsBothPlans() {
        QTemporaryDir dir;
        QString larger = editedSample(dir, "teaching_2x2.json", [](QJsonObject& doc) {
            QJsonArray params = doc["params"].toArray();
            for (auto p : params) {
                QJsonObject param = p.toObject();
                QJsonArray shape;
                for (const auto& extent : param["shape"].toArray()) shape << extent.toInt() * 2;
                param["shape"] = shape;
                p = param;
            }
            doc["params"] = params;
        });
        QString small = sample("teaching_2x2.json");
        auto r = inspect({"diff", small, larger, "--cluster", "h100-dgx", "--json"});
        QCOMPARE(r.exitCode, 1);
        QJsonObject cost = jsonOf(r.out)["cost"].toObject();
        QCOMPARE(cost["cluster"].toString(), QString("h100-dgx"));
        const QJsonObject before = cost["before"].toObject(), after = cost["after"].toObject();
        for (const auto& [side, path] : {std::pair{before, small}, std::pair{after, larger}}) {
            QJsonObject planned =
                jsonOf(inspect({"plan", path, "--cluster", "h100-dgx", "--json"}).out)["cost"]
                    .toObject();
            QCOMPARE(side["step_seconds"].toDouble(), planned["step_seconds"].toDouble());
            QCOMPARE(side["peak_bytes"].toInteger(), planned["peak_bytes"].toInteger());
            QCOMPARE(side["peak_rank"].toInt(), planned["peak_rank"].toInt());
        }
        QVERIFY(after["step_seconds"].toDouble() > before["step_seconds"].toDouble());
        QVERIFY(after["peak_bytes"].toInteger() > before["peak_bytes"].toInteger());
        QVERIFY(after["resident_bytes"].toInteger() > before["resident_bytes"].toInteger());
        QCOMPARE(cost["peak_bytes_change"].toInteger(),
                 after["peak_bytes"].toInteger() - before["peak_bytes"].toInteger());
        QVERIFY(
            qFuzzyCompare(cost["step_seconds_change"].toDouble(),
                          after["step_seconds"].toDouble() - before["step_seconds"].toDouble()));
        QCOMPARE(cost["faster"].toString(), QString("before"));
        QCOMPARE(cost["lighter"].toString(), QString("before"));
        QVERIFY(!cost["phases"].toArray().isEmpty());

        auto text = inspect({"diff", small, larger, "--cluster", "h100-dgx"});
        QVERIFY(text.out.contains("Cost on h100-dgx"));
        QVERIFY(text.out.contains("the before plan is faster"));
        QVERIFY(text.out.contains("the before plan is lighter"));
        auto swapped = inspect({"diff", larger, small, "--cluster", "h100-dgx"});
        QVERIFY(swapped.out.contains("the after plan is faster"));
        QVERIFY(swapped.out.contains("the after plan is lighter"));
    }

    // diff --cluster says of each plan whether it fits the device, as plan
    // --cluster says of its file, and by how much it is over: the lighter
    // plan is not a plan that fits.
    void clusterSaysWhichPlansFit() {
        QTemporaryDir dir;
        const QString wide = generated70b(dir, "dp_replicate=2,dp_shard=4,tp=4");
        const QString narrow = generated70b(dir, "dp_shard=8,tp=4");
        const QString capped = sample("llama3_70b_hsdp_tp_2x4x4.json");
        QVERIFY(!wide.isEmpty() && !narrow.isEmpty());
        struct Case {
            QString before, after, fit, words;
        };
        std::vector<Case> cases{
            Case{wide, narrow, "neither", "neither plan fits (before "},
            Case{wide, capped, "after", "only the after plan fits (the before"},
            Case{capped, wide, "before", "only the before plan fits (the after"},
            Case{capped, capped, "both", "both plans fit"}};
        // The sanitizers check the one code path on the smallest cases: each
        // 70B diff that does not fit is a minute there; the plain build runs all four.
        if (hsdp::testing::runBudgetDivisor() > 1) cases = {cases[1], cases[3]};
        // Each file's own plan --cluster once (a plan that does not fit
        // searches its remedies: seconds each, minutes under the sanitizers).
        QMap<QString, QJsonObject> plannedCost;
        for (const Case& c : cases)
            for (const QString& path : {c.before, c.after})
                if (!plannedCost.contains(path))
                    plannedCost[path] =
                        jsonOf(
                            inspect({"plan", path, "--cluster", "h100-dgx", "--json"}).out)["cost"]
                            .toObject();
        for (const Case& c : cases) {
            auto r = inspect({"diff", c.before, c.after, "--cluster", "h100-dgx", "--json"});
            QJsonObject cost = jsonOf(r.out)["cost"].toObject();
            QCOMPARE(cost["fit"].toString(), c.fit);
            for (const auto& [side, path] : {std::pair{cost["before"].toObject(), c.before},
                                             std::pair{cost["after"].toObject(), c.after}}) {
                const QJsonObject& planned = plannedCost[path];
                const qint64 device = planned["device_memory_bytes"].toInteger();
                const qint64 peak = planned["peak_bytes"].toInteger();
                QCOMPARE(side["device_memory_bytes"].toInteger(), device);
                QCOMPARE(side["fits"].toBool(), peak <= device);
                QCOMPARE(side["fits"].toBool(), planned["memory_fit"].toObject()["fits"].toBool());
                QCOMPARE(side["over_bytes"].toInteger(), std::max<qint64>(0, peak - device));
            }
            auto text = inspect({"diff", c.before, c.after, "--cluster", "h100-dgx"});
            QVERIFY2(
                text.out.contains("  device memory    ") && text.out.contains(c.words.toUtf8()),
                text.out.right(800).constData());
        }
    }

    void clusterOnTheSamePlanIsSame() {
        auto r = inspect({"diff", sample("teaching_2x2.json"), sample("teaching_2x2.json"),
                          "--cluster", "loopback", "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject cost = jsonOf(r.out)["cost"].toObject();
        QCOMPARE(cost["faster"].toString(), QString("same"));
        QCOMPARE(cost["lighter"].toString(), QString("same"));
        QCOMPARE(cost["peak_bytes_change"].toInteger(), 0);
        auto text = inspect({"diff", sample("teaching_2x2.json"), sample("teaching_2x2.json"),
                             "--cluster", "loopback"});
        QVERIFY(text.out.contains("both plans take the same time"));
        QVERIFY(text.out.contains("both plans peak the same"));
    }

    void unknownClusterExitsTwo() {
        auto r = inspect({"diff", sample("teaching_2x2.json"), sample("teaching_2x2.json"),
                          "--cluster", "no-such-cluster"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(r.err.contains("no-such-cluster"));
    }

    void unreadableFileExitsTwoNamingIt_data() {
        QTest::addColumn<bool>("second");
        QTest::newRow("second file") << true;
        QTest::newRow("first file") << false;
    }
    void unreadableFileExitsTwoNamingIt() {
        QFETCH(bool, second);
        QString good = sample("teaching_2x2.json");
        QString bad = QStringLiteral(HSDP_SOURCE_DIR "/tests/data/malformed/bad_placement.json");
        for (const QStringList& extra : {QStringList{}, QStringList{"--json"}}) {
            auto r = inspect(QStringList{"diff", second ? good : bad, second ? bad : good} + extra);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.out.isEmpty(), r.out.constData());
            QVERIFY2(r.err.contains("bad_placement.json"), r.err.constData());
            // The same message `plan` gives for that file.
            QCOMPARE(r.err, inspect({"plan", bad}).err);
        }
        auto missing = inspect({"diff", good, "/nonexistent/after.json"});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("after.json"));
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("one file") << QStringList{"diff", sample("teaching_2x2.json")};
        QTest::newRow("three files")
            << QStringList{"diff", sample("teaching_2x2.json"), sample("teaching_2x2.json"),
                           sample("teaching_2x2.json")};
        QTest::newRow("unknown option") << QStringList{"diff", sample("teaching_2x2.json"),
                                                       sample("teaching_2x2.json"), "--jsn"};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        auto r = inspect(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.isEmpty());
    }

    void help() {
        auto r = inspect({"diff", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("exit status"));
        QVERIFY(r.out.contains("--cluster NAME|FILE"));
        QVERIFY(inspect({"--help"}).out.contains("diff A B"));
    }
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
