// SPDX-License-Identifier: Apache-2.0
// hsdp-bench gather --shard-sizes FILE as a user meets it: a tiny file runs
// exactly its shards (two ranks, one round, so it stays quick), and every
// unusable file is refused with its name and line, exit 2.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli_process.h"

using namespace hsdp::testing;

namespace {

CliOutcome bench(const QStringList& args) {
    return runProgram(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-bench"), args);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text);
    return path;
}

}  // namespace

class TestBenchGatherCli : public QObject {
    Q_OBJECT
private slots:
    void runsExactlyTheListedShards() {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "sizes.txt", "# two params\n4096\n\n1000\n");
        const auto r =
            bench({"gather", "--shard-sizes", path, "--rounds", "1", "--ranks", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(out.value("ranks").toInt(), 2);
        QCOMPARE(out.value("params").toInt(), 2);
        QCOMPARE(out.value("shard_bytes").toArray(), (QJsonArray{4096, 1000}));
        QCOMPARE(out.value("payload_bytes_per_rank").toInt(), 5096);
        QCOMPARE(out.value("shard_sizes_file").toString(), path);
        QVERIFY(out.value("sweep").isNull());
        QVERIFY(!out.value("goals_apply").toBool());
        const QJsonObject main = out.value("main").toObject();
        QVERIFY(main.value("verified").toBool());
        QCOMPARE(main.value("rounds").toInt(), 1);
        QCOMPARE(main.value("fused_views").toInt(), 2);
        const QJsonObject phases = main.value("fused_phases_seconds").toObject();
        for (const char* phase : {"pack", "gather", "unpack"})
            QVERIFY2(phases.value(phase).toDouble(-1) >= 0, phase);
        QVERIFY(main.value("fused_vs_raw_throughput").toDouble() > 0);
    }

    void refusesUnusableFiles_data() {
        QTest::addColumn<QByteArray>("text");  // empty name below: the file is missing
        QTest::addColumn<QString>("where");    // what stderr must name after the path
        QTest::addColumn<QString>("why");
        QTest::newRow("missing") << QByteArray() << ""
                                 << "cannot open";
        QTest::newRow("empty") << QByteArray("") << ""
                               << "no shard sizes";
        QTest::newRow("comments only") << QByteArray("# none\n\n") << ""
                                       << "no shard sizes";
        QTest::newRow("not a number") << QByteArray("64\nabc\n") << ":2"
                                      << "not a whole number";
        QTest::newRow("trailing junk") << QByteArray("64 bytes\n") << ":1"
                                       << "not a whole number";
        QTest::newRow("zero") << QByteArray("64\n0\n") << ":2"
                              << "must be positive";
        QTest::newRow("negative") << QByteArray("-8\n") << ":1"
                                  << "must be positive";
        QTest::newRow("not f32") << QByteArray("64\n64\n6\n") << ":3"
                                 << "multiple of 4";
        QTest::newRow("overflow") << QByteArray("99999999999999999999\n") << ":1"
                                  << "too large";
        QTest::newRow("too much") << QByteArray("67108864\n4\n") << ":2"
                                  << "MiB per rank";
    }
    void refusesUnusableFiles() {
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const bool missing = QString(QTest::currentDataTag()) == "missing";
        const QString path =
            missing ? dir.filePath("no-such-file.txt") : writeFile(dir, "sizes.txt", text);
        const auto r = bench({"gather", "--shard-sizes", path, "--rounds", "1", "--ranks", "2"});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(path + where + ": ") && err.contains(why), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }

    // Both strategies on a small shard group (goals apply from 8 ranks): each
    // verifies, and what each rank receives follows the design's arithmetic.
    void comparesTheGatherStrategies() {
        const auto r = bench(
            {"gather", "--strategy", "all-to-all", "--ranks", "4", "--rounds", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value("benchmark").toString(), QString("gather.strategies"));
        QCOMPARE(j.value("goals_apply").toBool(), false);
        const auto gathered = j.value("all_gather").toObject();
        const auto exchanged = j.value("all_to_all").toObject();
        QVERIFY(gathered.value("verified").toBool() && exchanged.value("verified").toBool());
        // Of a 4-rank group the all-gather brings each rank 3/4 of the batch in
        // f32 plus the updates computed elsewhere; the all-to-all about 1/4 of that.
        const double ratio = j.value("received_bytes_ratio").toDouble();
        QVERIFY2(ratio > 3 && ratio < 5, qPrintable(QString::number(ratio)));
        QCOMPARE(ratio, gathered.value("max_received_bytes_per_rank").toDouble() /
                            exchanged.value("max_received_bytes_per_rank").toDouble());
        QVERIFY(exchanged.value("max_peak_bytes_per_rank").toDouble() <
                gathered.value("max_peak_bytes_per_rank").toDouble());
        QVERIFY(j.value("time_ratio").toDouble() > 0);
    }

    void refusesBadOptions() {
        for (const QStringList& args :
             {QStringList{"gather", "--rounds", "0"}, QStringList{"gather", "--ranks", "1"},
              QStringList{"gather", "--shard-sizes"}, QStringList{"gather", "--fast"},
              QStringList{"gather", "--strategy", "ring"}}) {
            const auto r = bench(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY(r.err.contains("usage: hsdp-bench gather"));
        }
    }
};

QTEST_APPLESS_MAIN(TestBenchGatherCli)
#include "tst_bench_gather_cli.moc"
