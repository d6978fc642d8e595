// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect run as a user and a CI script meet it: verdicts and exit
// codes, the JSON contract, traces, .npy dumps and the failure path.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>
#include <set>

#include "cli_process.h"
#include "export/npy.h"
#include "job_record/job_record_reader.h"

using namespace hsdp::testing;

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
    void timesAreRoundedAndNamed();
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
        // The text's count of gathers is of the params that were gathered:
        // once "0 exact … (3 gathered bit-exact)" read as a contradiction.
        int gathers = 0, exactGathers = 0, wrongGathers = 0;
        for (const auto& v : run.value("params").toArray()) {
            const QString gather = v.toObject().value("gather").toString();
            gathers += gather != "not-gathered";
            exactGathers += gather == "exact";
            wrongGathers += gather == "mismatch" || gather == "error";
        }
        QVERIFY(exactGathers < gathers);
        auto text = inspect({"run", hazards(), "--mode", "reference"});
        const QString line = QStringLiteral(
                                 "; %1 gathered (the others need no gather): %2 bit-exact, %3 "
                                 "wrong\n")
                                 .arg(gathers)
                                 .arg(exactGathers)
                                 .arg(wrongGathers);
        QVERIFY2(text.out.contains(line.toUtf8()), text.out.constData());
        // A run that stopped: the gathers it never checked are counted too.
        auto failedRun = inspect(
            {"run", sample("teaching_2x2.json"), "--inject-fault", "2:3", "--timeout", "30"});
        QCOMPARE(failedRun.exitCode, 1);
        QVERIFY2(failedRun.out.contains("not checked (the run stopped first)"),
                 failedRun.out.constData());
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

    // docs/job-records.md, "Runs as dumps": one dump per rank, read back as
    // one job, and the members of every group recorded the same collectives
    // (what fr_trace checks of a real job's dumps).
    void flightRecorderDumpsReadAsOneJob() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("fr");
        auto r = inspect({"run", sample("teaching_2x2.json"), "--flight-recorder", folder});
        QCOMPARE(r.exitCode, 0);
        const hsdp::JobRecord job = hsdp::readJobRecord({folder.toStdString()});
        QCOMPARE(job.dumps.size(), size_t(4));
        QVERIFY(job.ranksWithoutDump.empty());
        size_t entries = 0;
        for (const auto& group : hsdp::processGroupRecords(job)) {
            const auto& first = group.entriesByRank.begin()->second;
            for (const auto& [rank, list] : group.entriesByRank) {
                QCOMPARE(list.size(), first.size());
                for (size_t i = 0; i < list.size(); ++i) {
                    QCOMPARE(list[i]->collectiveSeqId, int64_t(i + 1));
                    QCOMPARE(list[i]->profilingName, first[i]->profilingName);
                    QCOMPARE(list[i]->inputDtypes, first[i]->inputDtypes);
                    // Uneven gathers and all-to-alls send each rank's own share.
                    const auto op = list[i]->operation();
                    if (op != "all_to_all") QCOMPARE(list[i]->outputSizes, first[i]->outputSizes);
                    if (op != "all_to_all" && op != "all_gather")
                        QCOMPARE(list[i]->inputSizes, first[i]->inputSizes);
                }
                entries += list.size();
            }
        }
        QVERIFY(entries > 4);
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
        QVERIFY2(QFile::exists("/usr/bin/python3"),
                 "/usr/bin/python3 is missing: run scripts/bootstrap (it installs python3)");
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
        QVERIFY2(!check.err.contains("No module named 'numpy'"),
                 "numpy is missing: run scripts/bootstrap (it installs python3-numpy)");
        QVERIFY2(check.exitCode == 0, check.out + check.err);
        QVERIFY(check.out.contains("0 differ"));
    }

    void checkDumpRefusesTextWithoutATraceback() {
        QVERIFY2(QFile::exists("/usr/bin/python3"),
                 "/usr/bin/python3 is missing: run scripts/bootstrap (it installs python3)");
        QTemporaryDir dir;
        auto text = inspect({"run", sample("teaching_2x2.json")});
        QFile out(dir.filePath("run.txt"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.out);
        out.close();
        auto check = runProgram("/usr/bin/python3", {HSDP_SOURCE_DIR "/scripts/check_dump.py",
                                                     out.fileName(), dir.path()});
        QCOMPARE(check.exitCode, 2);
        QVERIFY2(!check.err.contains("Traceback") && check.err.contains("run --json"),
                 check.err.constData());
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

    void planErrorDiagnosticsBlockVerified_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("codes");
        QTest::newRow("tour") << QStringList{"run", sample("diagnostics_tour.json"), "--json"}
                              << QStringList{"invalid-shard-dim", "unsupported-placement"};
        QTest::newRow("indivisible, reference")
            << QStringList{"run", sample("replica_count_indivisible.json"), "--json", "--mode",
                           "reference"}
            << QStringList{"replica-count-indivisible"};
    }
    void planErrorDiagnosticsBlockVerified() {
        // `plan` exits 1 on these files; `run` follows the same rule.
        QFETCH(QStringList, args);
        QFETCH(QStringList, codes);
        auto r = inspect(args);
        QCOMPARE(r.exitCode, 1);
        auto run = parseObject(r.out);
        QVERIFY(!run.value("verified").toBool());
        QStringList got;
        for (const auto& d : run.value("plan_errors").toArray())
            got << d.toObject().value("code").toString();
        QCOMPARE(got, codes);
        auto text =
            inspect(args.mid(0, args.indexOf("--json")) + args.mid(args.indexOf("--json") + 1));
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("NOT VERIFIED") && text.out.contains(codes[0].toUtf8()),
                 text.out.constData());
    }

    void stoppedRunSaysNotReached() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--inject-fault", "1:3", "--json"});
        QCOMPARE(r.exitCode, 1);
        int notReached = 0;
        for (const auto& v : parseObject(r.out).value("params").toArray()) {
            auto p = v.toObject();
            // "never reported" is not a failed step: the step was never reached.
            if (p.value("detail").toString().contains("never reported"))
                QCOMPARE(p.value("step").toString(), QString("not-reached"));
            // Replicas compared over the ranks that got that far prove nothing.
            if (p.value("step").toString() == "not-reached" ||
                p.value("gather").toString() == "not-reached")
                QCOMPARE(p.value("replicas").toString(), QString("not-reached"));
            notReached += p.value("step").toString() == "not-reached";
        }
        QVERIFY(notReached > 0);
        auto text = inspect({"run", sample("teaching_2x2.json"), "--inject-fault", "1:3"});
        QVERIFY2(text.out.contains("not-reached"), text.out.constData());
        QVERIFY2(!text.out.contains("step error"), text.out.constData());
    }

    void badOutputPathsFailBeforeTheRun_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("path");  // relative to a fresh temporary folder
        QTest::addColumn<QString>("reason");
        QTest::newRow("trace in a missing folder") << "--trace"
                                                   << "nope/t.json"
                                                   << "does not exist";
        QTest::newRow("trace is a folder") << "--trace"
                                           << "folder"
                                           << "is a folder";
        QTest::newRow("dump is a file") << "--dump"
                                        << "afile"
                                        << "not a folder";
        QTest::newRow("dump not empty") << "--dump"
                                        << "full"
                                        << "not empty";
        QTest::newRow("dump in a missing folder") << "--dump"
                                                  << "nope/deeper/d"
                                                  << "does not exist";
    }
    void badOutputPathsFailBeforeTheRun() {
        QFETCH(QString, option);
        QFETCH(QString, path);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("folder") && QDir(dir.path()).mkpath("full/x"));
        QFile file(dir.filePath("afile"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        auto r = inspect({"run", sample("teaching_2x2.json"), option, dir.filePath(path)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());  // no verdict: nothing ran
        QVERIFY2(r.err.contains(dir.filePath(path).toUtf8()) && r.err.contains(reason.toUtf8()),
                 r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("nope")));  // no folder tree grown
    }

    void dumpCreatesOnlyItsOwnFolderAndTraceLeavesNoTemporaryFile() {
        QTemporaryDir dir;
        auto r = inspect({"run", sample("teaching_2x2.json"), "--dump", dir.filePath("d"),
                          "--trace", dir.filePath("t.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(dir.filePath("d/rank0/final")).isDir());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{"d", "t.json"}));
        // A trailing slash names the same new folder.
        QCOMPARE(inspect({"run", sample("teaching_2x2.json"), "--dump", dir.filePath("e") + "/"})
                     .exitCode,
                 0);
        QVERIFY(QFileInfo(dir.filePath("e/rank0/final")).isDir());
        // An existing empty folder is fine too.
        QVERIFY(QDir(dir.path()).mkdir("empty"));
        QCOMPARE(
            inspect({"run", sample("teaching_2x2.json"), "--dump", dir.filePath("empty")}).exitCode,
            0);
    }

    void maxBytesTakesUnitsAndRefusesUselessBudgets() {
        for (const char* size : {"2GiB", "1e9", "512 MiB", "3000000000"})
            QCOMPARE(inspect({"run", sample("teaching_2x2.json"), "--max-bytes", size}).exitCode,
                     0);
        auto tiny = inspect({"run", sample("teaching_2x2.json"), "--max-bytes", "1"});
        QCOMPARE(tiny.exitCode, 2);
        QVERIFY2(tiny.out.isEmpty(), tiny.out.constData());
        QVERIFY2(tiny.err.contains("--max-bytes 1 is too small") && tiny.err.contains("at least"),
                 tiny.err.constData());
        // The minimum it names is truthful: exactly that budget runs.
        auto named = QRegularExpression("needs (\\d+) bytes").match(QString::fromUtf8(tiny.err));
        QVERIFY2(named.hasMatch(), tiny.err.constData());
        QCOMPARE(inspect({"run", sample("teaching_2x2.json"), "--max-bytes", named.captured(1)})
                     .exitCode,
                 0);
        auto bad = inspect({"run", sample("teaching_2x2.json"), "--max-bytes", "2 XB"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("GiB"), bad.err.constData());
    }

    void usageMessagesPointAtTheCommandHelp() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--timeout", "0"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--timeout expects a number >= 0.001, got '0'"), r.err.constData());
        QVERIFY2(r.err.contains("Try 'hsdp-inspect run --help'"), r.err.constData());
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
        QTest::newRow("flight recorder of a split run") << QStringList{
            "run", sample("teaching_2x2.json"), "--procs",
            "2",   "--flight-recorder",         QDir::tempPath() + "/hsdp-never-made"};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        auto r = inspect(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!r.err.isEmpty());
    }
};

// Every time in the run's text, three significant figures.
static bool threeFigures(const QString& number) {
    QString digits = number;
    digits.remove(QLatin1Char('.'));
    while (digits.startsWith(QLatin1Char('0'))) digits.remove(0, 1);
    return digits.size() == 3 || (!number.contains(QLatin1Char('.')) && number.toDouble() >= 100);
}

void TestCliRun::timesAreRoundedAndNamed() {
    auto r = inspect({"run", sample("teaching_2x2.json")});
    QCOMPARE(r.exitCode, 0);
    const QString text = QString::fromUtf8(r.out);
    // Where the wall time went, each part named: the truth before any rank
    // connects, the rendezvous, then the collectives and the checks.
    static const QRegularExpression line(
        QStringLiteral(", ([0-9.]+) s wall \\(computing the single-device truth ([0-9.]+) s, "
                       "connecting the groups ([0-9.]+) s, the collectives and checks ([0-9.]+) "
                       "s\\)\n"));
    const QRegularExpressionMatch m = line.match(text);
    QVERIFY2(m.hasMatch(), qPrintable(text));
    // Then the step's memory, per rank, the ledger's measurement held against the model.
    QVERIFY2(text.endsWith("measured = predicted on all 4 ranks\n"), qPrintable(text));
    double parts = 0;
    for (int i = 1; i <= 4; ++i) {
        QVERIFY2(threeFigures(m.captured(i)), qPrintable(m.captured(i)));
        if (i > 1) parts += m.captured(i).toDouble();
    }
    QVERIFY(std::abs(parts - m.captured(1).toDouble()) <= 0.01 * m.captured(1).toDouble() + 1e-3);
    // The progress line announces the truth before the groups, as they come.
    QVERIFY2(r.err.contains("preparing: the single-device truth, then "), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
