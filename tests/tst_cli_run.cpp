// hsdp-inspect run as a user and a CI script meet it: verdicts and exit
// codes, the JSON contract, traces, .npy dumps and the failure path.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <set>

#include "cli_process.h"
#include "export/npy.h"

namespace {

QString hazards() {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json");
}

QJsonObject parseObject(const QByteArray& bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

// docs/run.md §1: the gradient truth, written out independently of the engine.
float truthGradient(int param, int64_t k) {
    return static_cast<float>(((param * 131 + k * 7) % 251 - 125) / 64.0);
}

std::set<int> failingParams(const QJsonObject& run) {
    std::set<int> failing;
    for (const auto& v : run.value("params").toArray()) {
        auto p = v.toObject();
        bool ok =
            p.value("gather").toString() != "mismatch" && p.value("gather").toString() != "error" &&
            p.value("step").toString() == "exact" && p.value("replicas").toString() == "identical";
        if (!ok) failing.insert(p.value("index").toInt());
    }
    return failing;
}

}  // namespace

class TestCliRun : public QObject {
    Q_OBJECT
private slots:
    void correctedRunVerifiesWithTheJsonContract() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--json"});
        QCOMPARE(r.exitCode, 0);
        auto run = parseObject(r.out);
        for (const char* key : {"format", "mode", "world_size", "verified", "shrink", "params",
                                "tp_transitions", "collectives", "bytes", "seconds"})
            QVERIFY2(run.contains(key), key);
        QCOMPARE(run.value("format").toString(), QString("hsdp-run/1"));
        QCOMPARE(run.value("mode").toString(), QString("corrected"));
        QVERIFY(run.value("verified").toBool());
        QVERIFY(run.value("collectives").toInt() > 0);
        QVERIFY(run.value("bytes").toDouble() > 0);
        QVERIFY(failingParams(run).empty());
    }

    void referenceModeFailsExactlyOnTheHazards() {
        auto r = inspect({"run", hazards(), "--json", "--mode", "reference"});
        QCOMPARE(r.exitCode, 1);
        auto run = parseObject(r.out);
        QCOMPARE(run.value("mode").toString(), QString("reference"));
        QVERIFY(!run.value("verified").toBool());
        // docs/plan.md §6 names params 0 (strided), 1 (nested) and 3 (uneven).
        QCOMPARE(failingParams(run), (std::set<int>{0, 1, 3}));
        auto corrected = inspect({"run", hazards(), "--json"});
        QCOMPARE(corrected.exitCode, 0);
        QVERIFY(failingParams(parseObject(corrected.out)).empty());
    }

    void traceIsChromeJsonWithSharedSequenceIds() {
        QTemporaryDir dir;
        QString file = dir.filePath("trace.json");
        auto r = inspect({"run", sample("teaching_2x2.json"), "--trace", file});
        QCOMPARE(r.exitCode, 0);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto events = parseObject(in.readAll()).value("traceEvents").toArray();
        std::map<int, std::set<int>> ranksBySeq;
        std::set<int> pids;
        for (const auto& v : events) {
            auto e = v.toObject();
            if (e.value("ph").toString() != "X") continue;
            pids.insert(e.value("pid").toInt());
            auto args = e.value("args").toObject();
            QVERIFY(args.contains("op") && args.contains("bytes") && args.contains("group_ranks"));
            ranksBySeq[args.value("seq").toInt()].insert(e.value("pid").toInt());
        }
        QCOMPARE(pids, (std::set<int>{0, 1, 2, 3}));
        QVERIFY(!ranksBySeq.empty());
        for (const auto& [seq, ranks] : ranksBySeq)
            QVERIFY2(ranks.size() >= 1, "seq without ranks");
        // A two-rank all-gather: both participants carry the same sequence id.
        bool sharedPair = false;
        for (const auto& [seq, ranks] : ranksBySeq) sharedPair |= ranks.size() == 2;
        QVERIFY(sharedPair);
    }

    void dumpedGatheredTensorsEqualTheTruth() {
        QTemporaryDir dir;
        auto r = inspect({"run", hazards(), "--dump", dir.path(), "--json"});
        QCOMPARE(r.exitCode, 0);
        int checked = 0;
        for (const auto& v : parseObject(r.out).value("params").toArray()) {
            auto p = v.toObject();
            if (p.value("gather").toString() != "exact") continue;
            for (int rank = 0; rank < 4; ++rank) {
                QString path = dir.filePath(QString("rank%1/gathered/%2.npy")
                                                .arg(rank)
                                                .arg(QString::fromStdString(hsdp::npyFileName(
                                                    p.value("name").toString().toStdString()))));
                if (!QFile::exists(path)) continue;
                auto array = hsdp::readNpyFloat32(path.toStdString());
                QCOMPARE(array.descr, std::string("<f4"));
                for (size_t k = 0; k < array.data.size(); ++k)
                    QCOMPARE(array.data[k], truthGradient(p.value("index").toInt(), int64_t(k)));
                ++checked;
            }
        }
        QVERIFY2(checked >= 8, qPrintable(QString::number(checked)));
        QVERIFY(QFile::exists(dir.filePath("rank0/final/rowwise.npy")));
    }

    void numpyReadsTheDump() {
        if (!QFile::exists("/usr/bin/python3")) QSKIP("no /usr/bin/python3");
        QTemporaryDir dir;
        auto r =
            inspect({"run", sample("teaching_2x2.json"), "--dump", dir.filePath("d"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QFile json(dir.filePath("run.json"));
        QVERIFY(json.open(QIODevice::WriteOnly));
        json.write(r.out);
        json.close();
        auto check = runProgram("/usr/bin/python3", {HSDP_SOURCE_DIR "/scripts/check_dump.py",
                                                     json.fileName(), dir.filePath("d")});
        if (check.err.contains("No module named 'numpy'")) QSKIP("python3-numpy not installed");
        QVERIFY2(check.exitCode == 0, check.out + check.err);
        QVERIFY(check.out.contains("0 differ"));
    }

    void injectedFaultEndsCleanlyNamingTheRank() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--json", "--inject-fault", "2:3",
                          "--timeout", "30"},
                         60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.millis < 15000, qPrintable(QString::number(r.millis)));
        auto run = parseObject(r.out);
        QVERIFY(!run.value("verified").toBool());
        QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains("rank 2"), r.out.constData());
    }

    void faultPastTheLastCollectiveIsReported() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--inject-fault", "1:100000"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("never fired: rank 1 made only"), r.err.constData());
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("mode") << QStringList{"run", sample("teaching_2x2.json"), "--mode", "fast"};
        QTest::newRow("fault") << QStringList{"run", sample("teaching_2x2.json"), "--inject-fault",
                                              "2"};
        QTest::newRow("fault rank outside the world")
            << QStringList{"run", sample("teaching_2x2.json"), "--inject-fault", "4:1"};
        QTest::newRow("timeout") << QStringList{"run", sample("teaching_2x2.json"), "--timeout",
                                                "-1"};
        QTest::newRow("missing") << QStringList{"run", sample("nope.json"), "--json"};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        auto r = inspect(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
