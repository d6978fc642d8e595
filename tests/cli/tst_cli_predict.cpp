// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect calibrate and run --cluster as a user meets them: the file
// calibrate writes reads back strictly and round-trips; a run on a cluster
// carries its prediction beside what it measured. No absolute times are
// asserted: only figures of one run against each other.
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>

#include "cli_process.h"
#include "cluster/reader.h"
#include "cluster/writer.h"
#include "run_budget.h"
#include "sanitizers.h"

using namespace hsdp::testing;

class TestCliPredict : public QObject {
    Q_OBJECT
private slots:
    void calibrateWritesAClusterThatRoundTrips() {
        // Under ThreadSanitizer the sweep takes minutes; tst_calibrate runs
        // its threads there on a small sweep, the other builds run this.
        if (HSDP_THREAD_SANITIZED) QSKIP("the whole sweep: tst_calibrate's small one under TSan");
        QTemporaryDir dir;
        const QString file = dir.filePath("machine.json");
        // One repetition under the sanitizers (which divide the run budgets):
        // the file's shape is the same, and a repetition costs a minute there.
        const bool sanitized = hsdp::testing::runBudgetDivisor() > 1;
        auto r = inspect({"calibrate", "--repetitions", sanitized ? "1" : "3", "--name",
                          "this-machine", "-o", file});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());  // the file, not stdout; progress on stderr
        QVERIFY(r.err.contains("all_gather and broadcast over"));
        QVERIFY(r.err.contains("fit error"));
        const hsdp::Cluster c = hsdp::readClusterFile(file.toStdString());
        QCOMPARE(c.name, std::string("this-machine"));
        QCOMPARE(c.algorithms, hsdp::CollectiveAlgorithms::Gloo);
        QVERIFY(c.sharedCores >= 1);
        QVERIFY(c.intraNode.bandwidthBytesPerSecond > 0);
        QVERIFY(c.device.peakFlops.float32 > 0);
        QVERIFY(c.device.memoryBandwidthBytesPerSecond > 0);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        QCOMPARE(hsdp::writeCluster(hsdp::readCluster(text)), text);
        const auto record = QJsonDocument::fromJson(QByteArray::fromStdString(text))
                                .object()
                                .value("calibration")
                                .toObject();
        // ops x sizes x (8 configurations of groups + 6 beside computing threads)
        QCOMPARE(record.value("collectives").toArray().size(), 2 * 4 * (8 + 6));
        QVERIFY(!record.value("compute").toArray().isEmpty());
    }

    void calibrateHelpAndUsage() {
        auto help = inspect({"calibrate", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("-o, --output FILE"));
        QVERIFY(help.out.contains("shared_cores"));
        QCOMPARE(inspect({"calibrate", "extra"}).exitCode, 2);
        QCOMPARE(inspect({"calibrate", "--repetitions", "0"}).exitCode, 2);
        QCOMPARE(inspect({"calibrate", "-o", "/nonexistent-dir/x.json"}).exitCode, 2);
    }

    void runOnAClusterHasItsPrediction() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--cluster", "loopback", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject run = QJsonDocument::fromJson(r.out).object();
        QVERIFY(run.value("verified").toBool());
        const double wall = run.value("seconds").toDouble();
        const double step = run.value("step_seconds").toDouble();
        QVERIFY(run.value("predicted_seconds").toDouble() > 0);
        // Measured in the same run: the step is a part of the run's wall time.
        QVERIFY(step > 0);
        QVERIFY(step <= wall);
        const QJsonObject p = run.value("prediction").toObject();
        QCOMPARE(p.value("cluster").toString(), QString("loopback"));
        QCOMPARE(p.value("measured_step_seconds").toDouble(), step);
        QCOMPARE(p.value("predicted_seconds").toDouble(),
                 run.value("predicted_seconds").toDouble());
        QVERIFY(p.value("makespan_error").toDouble() >= 0);
        QVERIFY(p.value("collectives_timed").toInt() > 0);
        const QJsonArray ops = p.value("ops").toArray();
        QVERIFY(!ops.isEmpty());
        int timed = 0;
        for (const auto& op : ops) {
            const auto o = op.toObject();
            QVERIFY(o.value("median_abs_rel_error").isDouble());
            QVERIFY(o.value("measured_seconds").toDouble() > 0);
            QVERIFY(o.value("predicted_seconds").toDouble() > 0);
            timed += o.value("collectives").toInt();
        }
        QCOMPARE(timed, p.value("collectives_timed").toInt());
        QVERIFY(!p.contains("mismatches"));
        // The keys sit beside `seconds`.
        const QStringList keys = run.keys();
        QVERIFY(keys.contains("step_seconds") && keys.contains("predicted_seconds"));
    }

    void runTextSaysWhatIsMeasuredAndPredicted() {
        auto r =
            inspect(QStringList{"run", sample("llama3_8b_hsdp_2x4.json"), "--cluster", "loopback"} +
                    budgetedRunArgs());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("Prediction on loopback"));
        QVERIFY(r.out.contains("measured"));
        QVERIFY(r.out.contains("predicted"));
        QVERIFY(r.out.contains("error"));
        QVERIFY(r.out.contains("all_gather"));
        QVERIFY(r.out.contains("broadcast"));
        QVERIFY(r.out.contains("compute between collectives"));
        QVERIFY(r.out.contains("newton_schulz"));
        // loopback is this machine: no caveat. Each op's and kind's error is
        // first the signed error of the two sums it prints beside it.
        QVERIFY(!r.out.contains("not this run"));
        const QString duration = QStringLiteral(R"(([\d.]+) (s|ms|µs|ns))");
        const QRegularExpression line(
            QStringLiteral(R"(^\s+(\w+)\s+\d+\s+measured )") + duration +
            QStringLiteral(R"(\s+predicted )") + duration +
            QStringLiteral(R"(\s+error ([+-][\d.]+) %\s+median [\d.]+ %$)"));
        auto seconds = [](const QString& value, const QString& unit) {
            const double scale = unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "ns" ? 1e-9 : 1e-6;
            return value.toDouble() * scale;
        };
        int lines = 0;
        for (const QString& text : QString::fromUtf8(r.out).split('\n')) {
            const auto m = line.match(text);
            if (!m.hasMatch()) continue;
            ++lines;
            const double measured = seconds(m.captured(2), m.captured(3));
            const double predicted = seconds(m.captured(4), m.captured(5));
            const double expected = 100 * (predicted - measured) / measured;
            // The sums print at 3 significant figures.
            QVERIFY2(
                std::abs(m.captured(6).toDouble() - expected) <= 0.01 * std::abs(expected) + 0.2,
                qPrintable(text));
        }
        QVERIFY2(lines >= 4, r.out.constData());
        // The step's error is signed like the rows': predicted under measured is negative.
        const QRegularExpression step(
            QStringLiteral(R"(step \(makespan of the optimizer step\): measured )") + duration +
            QStringLiteral(", predicted ") + duration +
            QStringLiteral(R"(.*, error ([+-][\d.]+) %)"));
        const auto m = step.match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), r.out.constData());
        const double measured = seconds(m.captured(1), m.captured(2));
        const double predicted = seconds(m.captured(3), m.captured(4));
        QVERIFY2(std::abs(m.captured(5).toDouble() - 100 * (predicted - measured) / measured) <= 1,
                 qPrintable(m.captured(0)));  // all_gather, broadcast and compute kinds
    }

    // --replay: the run's own durations through the step's graph, then each
    // class the model's; it needs a cluster.
    void replayAccountsForEachClass() {
        auto r = inspect(
            {"run", sample("teaching_2x2.json"), "--cluster", "loopback", "--replay", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject replay = QJsonDocument::fromJson(r.out)
                                       .object()
                                       .value("prediction")
                                       .toObject()
                                       .value("replay")
                                       .toObject();
        QVERIFY(replay.value("replayed_seconds").toDouble() > 0);
        QStringList classes;
        for (const auto& c : replay.value("classes").toArray())
            classes << c.toObject().value("durations").toString();
        QCOMPARE(classes, (QStringList{"collectives", "newton_schulz", "pack_unpack", "update",
                                       "rank_overhead"}));
        auto alone = inspect({"run", sample("teaching_2x2.json"), "--replay"});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY(alone.err.contains("--replay needs --cluster"));
    }

    // Each compute kind is timed over the spans the trace holds: the
    // prediction's counts are the trace file's compute events, kind by kind.
    void computeKindsAreComparedOverTheTracedSpans() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.json");
        auto r = inspect(QStringList{"run", sample("llama3_8b_hsdp_2x4.json"), "--cluster",
                                     "loopback", "--json", "--trace", trace} +
                         budgetedRunArgs());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QMap<QString, int> traced;
        for (const auto& e : QJsonDocument::fromJson(f.readAll()).object()["traceEvents"].toArray())
            if (e.toObject()["cat"].toString() == "compute")
                traced[e.toObject()["args"].toObject()["op"].toString()] += 1;
        const QJsonObject p =
            QJsonDocument::fromJson(r.out).object().value("prediction").toObject();
        QVERIFY(!p.contains("compute_mismatches"));
        QMap<QString, int> compared;
        for (const auto& c : p.value("compute").toArray()) {
            const auto o = c.toObject();
            QVERIFY(o.value("median_abs_rel_error").isDouble());
            QVERIFY(o.value("predicted_seconds").toDouble() > 0);
            compared[o.value("kind").toString()] = o.value("spans").toInt();
        }
        QCOMPARE(compared, traced);
        // A gathered HSDP batch packs, unpacks, runs Newton–Schulz and updates.
        QCOMPARE(compared.keys(), (QStringList{"newton_schulz", "pack", "unpack", "update"}));
    }

    void aGpuPresetPredictsTooAndABadClusterIsUsage() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--cluster", "h100-dgx", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out).object();
        QVERIFY(run.value("predicted_seconds").toDouble() > 0);
        // A GPU preset does not describe this machine, and the run says so.
        QCOMPARE(
            run.value("prediction").toObject().value("cluster_describes_this_run").toBool(true),
            false);
        auto text = inspect({"run", sample("teaching_2x2.json"), "--cluster", "h100-dgx"});
        QVERIFY2(text.out.contains("h100-dgx describes NCCL on GPUs, not this run"),
                 text.out.constData());
        auto bad = inspect({"run", sample("teaching_2x2.json"), "--cluster", "no-such-cluster"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("no cluster preset or file"));
        QVERIFY(bad.out.isEmpty());  // refused before the run
    }

    void runWithoutAClusterIsUnchanged() {
        auto r = inspect({"run", sample("teaching_2x2.json"), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject run = QJsonDocument::fromJson(r.out).object();
        QVERIFY(!run.contains("prediction"));
        QVERIFY(!run.contains("predicted_seconds"));
    }
};

QTEST_GUILESS_MAIN(TestCliPredict)
#include "tst_cli_predict.moc"
