// SPDX-License-Identifier: Apache-2.0
// calibrate --from-job: a job's timed collectives fit its cluster's link
// figures. A record timed by a known cluster gives that cluster's figures
// back, from Flight Recorder dumps and from Kineto traces alike; a run's own
// dumps round-trip through the CLI into a cluster file the reader takes; a
// record without durations is refused with the reason.
#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

#include "calibrate/job_calibration.h"
#include "cli_process.h"
#include "cluster/reader.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// Two DGX-class nodes of 8: h100-dgx with other figures, the "truth" a job
// was timed by.
Cluster truthCluster(const Cluster& base) {
    Cluster truth = withNodes(base, 2);
    truth.intraNode.latencySeconds = 8e-6;
    truth.intraNode.bandwidthBytesPerSecond = 360e9;
    truth.intraNode.efficiency = 1;
    truth.interNode.latencySeconds = 20e-6;
    truth.interNode.bandwidthBytesPerSecond = 45e9;
    truth.interNode.efficiency = 1;
    return truth;
}

struct Group {
    std::string name;
    std::vector<int64_t> ranks;
};

// Groups within a node (0..7) and across both (0, 8 and 1, 9).
const std::vector<Group> kGroups = {
    {"intra", {0, 1, 2, 3, 4, 5, 6, 7}}, {"across_a", {0, 8}}, {"across_b", {1, 9}}};
const std::vector<int64_t> kElements = {1 << 19, 1 << 23, 1 << 27};  // gathered bf16 elements

// Every member's all-gathers, timed by `truth`: a member that arrived
// earlier waited longer, the last one's duration is the transfer's.
JobRecord timedRecord(const Cluster& truth, bool withDurations) {
    JobRecord job;
    job.worldSize = 16;
    for (const Group& g : kGroups)
        for (size_t m = 0; m < g.ranks.size(); ++m) {
            FlightRecorderDump& dump = job.dumps[g.ranks[m]];
            dump.version = "2.10";
            dump.groups.push_back({g.name, g.name, g.ranks});
            int64_t seq = 0;
            for (int64_t n : kElements) {
                FlightRecorderEntry e;
                e.pgName = e.pgDesc = g.name;
                e.collectiveSeqId = e.opId = ++seq;
                e.profilingName = "nccl:_all_gather_base";
                e.inputSizes = {{n / int64_t(g.ranks.size())}};
                e.outputSizes = {{n}};
                e.inputDtypes = e.outputDtypes = {"BFloat16"};
                e.state = CollectiveState::Completed;
                const double seconds = collectiveSeconds(CollectiveOp::AllGather, n * 2,
                                                         {g.ranks.begin(), g.ranks.end()}, truth);
                if (withDurations) e.durationMs = seconds * 1000 * (1 + 0.1 * double(m));
                dump.entries.push_back(e);
            }
        }
    return job;
}

// The same collectives as Kineto sees them: record_param_comms events with
// their group's ranks and sequence id.
JobRecord tracedRecord(const Cluster& truth) {
    JobRecord job;
    job.worldSize = 16;
    for (const Group& g : kGroups)
        for (size_t m = 0; m < g.ranks.size(); ++m) {
            KinetoTrace& trace = job.traces[g.ranks[m]];
            int64_t seq = 0;
            for (int64_t n : kElements) {
                KinetoCollective c;
                c.collectiveName = "_allgather_base";
                c.inNelems = n / int64_t(g.ranks.size());
                c.outNelems = n;
                c.groupSize = int64_t(g.ranks.size());
                c.dtype = "BFloat16";
                c.pgRanks = g.ranks;
                c.seq = ++seq;
                c.durUs = 1e6 * (1 + 0.1 * double(m)) *
                          collectiveSeconds(CollectiveOp::AllGather, n * 2,
                                            {g.ranks.begin(), g.ranks.end()}, truth);
                trace.collectives.push_back(c);
            }
        }
    return job;
}

void checkRecovered(const JobCalibration& fit, const Cluster& truth) {
    QCOMPARE(fit.samples.size(), kGroups.size() * kElements.size());
    QCOMPARE(fit.levels.size(), size_t(2));
    for (const LevelFit& level : fit.levels) {
        QVERIFY(level.fitted);
        const LinkSpec& want = truth.link(level.level);
        QVERIFY2(std::abs(level.after.latencySeconds / want.latencySeconds - 1) < 1e-6,
                 qPrintable(QString::number(level.after.latencySeconds)));
        QVERIFY2(std::abs(level.after.effectiveBandwidth() / want.effectiveBandwidth() - 1) < 1e-6,
                 qPrintable(QString::number(level.after.effectiveBandwidth())));
        QVERIFY(level.medianErrorBefore > 0.05);  // h100-dgx's own figures are not the truth's
        QVERIFY(level.medianErrorAfter < 1e-6);
    }
    QVERIFY(fit.medianErrorAfter < 1e-6);
}

}  // namespace

class TestJobCalibration : public QObject {
    Q_OBJECT
private slots:
    void flightRecorderDurationsGiveTheClusterBack() {
        const Cluster base = readClusterPreset("h100-dgx");
        const Cluster truth = truthCluster(base);
        checkRecovered(calibrateFromJob(timedRecord(truth, true), base), truth);
    }

    void kinetoTracesGiveTheClusterBack() {
        const Cluster base = readClusterPreset("h100-dgx");
        const Cluster truth = truthCluster(base);
        checkRecovered(calibrateFromJob(tracedRecord(truth), base), truth);
    }

    void aRecordWithoutDurationsIsRefused() {
        const Cluster base = readClusterPreset("h100-dgx");
        try {
            calibrateFromJob(timedRecord(truthCluster(base), false), base);
            QFAIL("an untimed record was fitted");
        } catch (const std::invalid_argument& error) {
            const QString text = QString::fromUtf8(error.what());
            QVERIFY2(text.contains("9 lack a completed duration") &&
                         text.contains("TORCH_NCCL_ENABLE_TIMING=1"),
                     qPrintable(text));
        }
    }

    void operationsAsPyTorchNamesThem() {
        QCOMPARE(recordedOp("_all_gather_base"), std::optional(CollectiveOp::AllGather));
        QCOMPARE(recordedOp("allreduce"), std::optional(CollectiveOp::AllReduce));
        QCOMPARE(recordedOp("reduce_scatter_tensor"), std::optional(CollectiveOp::ReduceScatter));
        QCOMPARE(recordedOp("broadcast"), std::optional(CollectiveOp::Broadcast));
        QVERIFY(!recordedOp("barrier"));
        QVERIFY(!recordedOp("send 0->1"));
    }

    // A run's own dumps (durations of this machine's run) through the CLI:
    // the file reads back, the fit is no worse on them than loopback's own
    // figures, and the same dumps without durations exit 1.
    void cliFitsARunsDumps() {
        QTemporaryDir dir;
        const QString dumps = dir.filePath("dumps");
        QCOMPARE(inspect({"run", HSDP_SOURCE_DIR "/samples/teaching_2x2.json", "--flight-recorder",
                          dumps})
                     .exitCode,
                 0);
        const QString out = dir.filePath("fit.json");
        const CliOutcome fit =
            inspect({"calibrate", "--from-job", dumps, "--cluster", "loopback", "-o", out});
        QVERIFY2(fit.exitCode == 0, fit.err.constData());
        const Cluster cluster = readClusterFile(out.toStdString());
        QCOMPARE(QString::fromStdString(cluster.name), QString("loopback-from-job"));
        const QJsonObject evidence =
            QJsonDocument::fromJson(QByteArray::fromStdString(cluster.calibration)).object();
        // Its collectives are microseconds long: their noise, not the fit, sets the error.
        QVERIFY(evidence["collectives"].toInt() > 0);
        QVERIFY(evidence["median_error_after"].toDouble() >= 0);
        QVERIFY2(fit.err.contains("collectives recorded on every member") &&
                     fit.err.contains("median error on the job's collectives"),
                 fit.err.constData());

        for (const QString& name : QDir(dumps).entryList(QDir::Files)) {
            QFile file(QDir(dumps).filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QJsonObject dump = QJsonDocument::fromJson(file.readAll()).object();
            file.close();
            QJsonArray entries;
            for (const QJsonValue& entry : dump["entries"].toArray()) {
                QJsonObject untimed = entry.toObject();
                untimed.remove("duration_ms");  // as a job without TORCH_NCCL_ENABLE_TIMING
                entries.append(untimed);
            }
            dump["entries"] = entries;
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QJsonDocument(dump).toJson());
        }
        const CliOutcome untimed =
            inspect({"calibrate", "--from-job", dumps, "--cluster", "loopback"});
        QCOMPARE(untimed.exitCode, 1);
        QVERIFY2(untimed.err.contains("no timed collective to fit"), untimed.err.constData());

        const CliOutcome alone = inspect({"calibrate", "--from-job", dumps});
        QCOMPARE(alone.exitCode, 2);
        QVERIFY2(alone.err.contains("--from-job and --cluster BASE go together"),
                 alone.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestJobCalibration)
#include "tst_job_calibration.moc"
