// SPDX-License-Identifier: Apache-2.0
// A folder of dumps is one job (docs/job-records.md): ranks from the file
// names as fr_trace reads them, or from a trace's distributedInfo; a second
// file for a rank or a file without a rank is an error naming it; ranks
// without a file are listed; each process group's entries per member in
// sequence order.
#include <QtTest>
#include <stop_token>

#include <QTemporaryDir>
#include <fstream>

#include "flight_recorder_fixture.h"
#include "job_record/flight_recorder_reader.h"
#include "job_record/job_record_reader.h"
#include "kineto_trace_fixture.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

void expectError(const std::vector<std::string>& paths, const std::string& file,
                 const std::string& mentions) {
    try {
        readJobRecord(paths);
        QFAIL("no error");
    } catch (const JobRecordError& e) {
        QVERIFY2(e.file == file, e.what());
        QVERIFY2(std::string(e.what()).find(mentions) != std::string::npos, e.what());
    }
}

}  // namespace

class TestJobRecordReader : public QObject {
    Q_OBJECT
private slots:
    void rankFromFileNameAsFrTraceReadsIt_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank");  // -1: none
        QTest::newRow("torch's default") << "nccl_trace_rank_12" << 12;
        QTest::newRow("json") << "rank3.json" << 3;
        QTest::newRow("pkl") << "dump_0.pkl" << 0;
        QTest::newRow("pickle") << "host-a_rank7.pickle" << 7;
        QTest::newRow("digits inside only") << "rank3_dump" << -1;
        QTest::newRow("no digits") << "nccl_trace_rank_" << -1;
        QTest::newRow("extension alone") << ".json" << -1;
        QTest::newRow("too many digits") << "rank123456789012" << -1;
    }
    void rankFromFileNameAsFrTraceReadsIt() {
        QFETCH(QString, name);
        QFETCH(int, rank);
        const auto found = rankFromFileName(name.toStdString());
        QCOMPARE(found.has_value(), rank >= 0);
        if (found) QCOMPARE(*found, int64_t(rank));
    }

    // Four ranks, rank 2's dump missing; pickle and JSON dumps side by side.
    void aFolderIsOneJob() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        writeFile(folder + "/nccl_trace_rank_0", fixtureDumpBytes("2.4", false, 0, 4));
        writeFile(folder + "/nccl_trace_rank_1", fixtureDumpBytes("2.4", false, 1, 4));
        writeFile(folder + "/nccl_trace_rank_3.json", fixtureDumpBytes("2.4", true, 3, 4));
        writeFile(folder + "/.hidden", "not read");
        const JobRecord job = readJobRecord({folder});
        QCOMPARE(job.dumps.size(), size_t(3));
        QCOMPARE(job.worldSize, int64_t(4));
        QCOMPARE(job.ranksWithoutDump, (std::vector<int64_t>{2}));
        QVERIFY(job.ranksWithoutTrace.empty());
        QCOMPARE(job.dumpFiles.at(3), folder + "/nccl_trace_rank_3.json");
        QVERIFY(job.dumps.at(3).encoding == DumpEncoding::Json);
    }

    // A stop asked for ends the reading before the next file (the studio's
    // Cancel on a record of thousands of dumps): nothing more is read.
    void aStopEndsTheReadingBetweenFiles() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        writeFile(folder + "/nccl_trace_rank_0", fixtureDumpBytes("2.4", false, 0, 2));
        writeFile(folder + "/nccl_trace_rank_1", "not a dump: an error if it were read");
        std::stop_source stop;
        stop.request_stop();
        try {
            readJobRecord({folder}, stop.get_token());
            QFAIL("a stopped reading returned a record");
        } catch (const JobRecordError& error) {
            QCOMPARE(error.problem, std::string("reading cancelled"));
        }
        QVERIFY_THROWS_EXCEPTION(JobRecordError, readJobRecord({folder}));  // rank 1's file
    }

    // Groups are joined by name and members: "1" of ranks 0-1 and "1" of
    // ranks 2-3 are two groups; each member's entries come in sequence order.
    void processGroupsAcrossTheJob() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        for (int rank = 0; rank < 4; ++rank) {
            PickleJson dump = fixtureDump("2.10", false, rank, 4);
            std::reverse(dump["entries"].begin(), dump["entries"].end());  // recorded out of order
            writeFile(folder + "/nccl_trace_rank_" + std::to_string(rank), writePickle(dump));
        }
        const JobRecord job = readJobRecord({folder});
        const auto groups = processGroupRecords(job);
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].name, std::string("0"));
        QCOMPARE(groups[0].ranks, (std::vector<int64_t>{0, 1, 2, 3}));
        QCOMPARE(groups[0].entriesByRank.size(), size_t(4));
        const auto& world = groups[0].entriesByRank.at(2);
        QCOMPARE(world.size(), size_t(2));
        QCOMPARE(world[0]->profilingName, std::string("nccl:all_reduce"));
        QCOMPARE(world[1]->collectiveSeqId, int64_t(2));
        QCOMPARE(groups[1].ranks, (std::vector<int64_t>{0, 1}));
        QCOMPARE(groups[2].ranks, (std::vector<int64_t>{2, 3}));
        QCOMPARE(groups[2].desc, std::string("mesh_dp"));
        const auto& pair = groups[2].entriesByRank.at(3);
        QCOMPARE(pair.size(), size_t(2));
        QCOMPARE(pair[0]->operation(), std::string_view("_all_gather_base"));
        QVERIFY(pair[1]->isP2P);  // point-to-point after the collectives
        QVERIFY(!groups[2].entriesByRank.count(0));
    }

    void tracesTakeTheirRankFromDistributedInfo() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        writeFile(folder + "/host.1234.pt.trace.json", kinetoTrace(1).dump());
        writeFile(folder + "/nccl_trace_rank_0", fixtureDumpBytes("2.9", false, 0, 2));
        writeFile(folder + "/nccl_trace_rank_1", fixtureDumpBytes("2.9", false, 1, 2));
        const JobRecord job = readJobRecord({folder});
        QCOMPARE(job.traces.size(), size_t(1));
        QCOMPARE(job.traces.count(1), size_t(1));  // from distributedInfo: the name has no rank
        QCOMPARE(job.ranksWithoutTrace, (std::vector<int64_t>{0}));
        QVERIFY(job.ranksWithoutDump.empty());
        // Without distributedInfo, the name's number.
        QTemporaryDir other;
        writeFile(other.filePath("trace_rank0.json").toStdString(), kinetoTrace(0, false).dump());
        QCOMPARE(readJobRecord({other.path().toStdString()}).traces.count(0), size_t(1));
    }

    // The fuzzers' seeds, written by Python's pickle and json modules as
    // PyTorch writes dumps and traces (protocol 2; re-pickled at 4; JSON),
    // read as one job of two ranks.
    void theSeedDumpsAndTracesRead() {
        const std::string data = HSDP_SOURCE_DIR "/tests/data/job_records/";
        const JobRecord job = readJobRecord(
            {data + "flight_recorder/nccl_trace_rank_0", data + "flight_recorder/nccl_trace_rank_1",
             data + "kineto/rank0.pt.trace.json", data + "kineto/rank1.pt.trace.json"});
        QCOMPARE(job.worldSize, int64_t(2));
        QVERIFY(job.ranksWithoutDump.empty() && job.ranksWithoutTrace.empty());
        QCOMPARE(job.dumps.at(0).version, std::string("2.4"));
        QCOMPARE(job.dumps.at(1).version, std::string("2.10"));
        QCOMPARE(job.dumps.at(1).entries[0].outputSizes,
                 (std::vector<std::vector<int64_t>>{{4096}}));
        QCOMPARE(job.dumps.at(1).entries[3].frames[0].line,
                 int64_t(3709));  // a dict Python memoized once
        QCOMPARE(job.dumps.at(1).entries[3].threadName, std::string("pt_main_thread"));
        QCOMPARE(job.traces.at(1).collectives.size(), size_t(2));
        QCOMPARE(job.traces.at(1).collectives[0].outNelems, int64_t(4096));
        const auto repickled =
            readFlightRecorderFile(data + "flight_recorder/repickled_rank_0.pkl");
        QCOMPARE(repickled.version, std::string("2.7"));
        QCOMPARE(repickled.commLibVersion, std::string("2.20.5"));
        const auto json = readFlightRecorderFile(data + "flight_recorder/rank_1.json");
        QVERIFY(json.encoding == DumpEncoding::Json);
        QVERIFY(!json.entries[3].timeDiscoveredStartedNs);
        QCOMPARE(json.status[0].lastCompleted, int64_t(1));
    }

    void aSecondFileForARankIsAnError() {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a_rank1").toStdString(),
                          b = dir.filePath("b_rank1.json").toStdString();
        writeFile(a, fixtureDumpBytes("2.4", false, 1, 2));
        writeFile(b, fixtureDumpBytes("2.4", true, 1, 2));
        expectError({dir.path().toStdString()}, b,
                    "a second Flight Recorder dump of rank 1 (the first is " + a + ")");
    }

    void filesWithoutARankAreErrors() {
        QTemporaryDir dir;
        const std::string dump = dir.filePath("dump.json").toStdString();
        writeFile(dump, fixtureDumpBytes("2.4", true, 0, 2));
        expectError({dump}, dump, "cannot tell its rank");
        const std::string trace = dir.filePath("trace.json").toStdString();
        writeFile(trace, kinetoTrace(0, false).dump());
        expectError({trace}, trace, "no distributedInfo.rank");
    }

    // A refused file's error names that file, and the reader's path in it.
    void aBadFileInTheFolderIsNamed() {
        QTemporaryDir dir;
        writeFile(dir.filePath("nccl_trace_rank_0").toStdString(),
                  fixtureDumpBytes("2.4", false, 0, 2));
        const std::string bad = dir.filePath("nccl_trace_rank_1").toStdString();
        writeFile(bad, std::string("\x80\x02") + "cos\nsystem\n");
        expectError({dir.path().toStdString()}, bad, "offset 2: refused opcode GLOBAL");
        expectError({dir.filePath("nowhere").toStdString()}, dir.filePath("nowhere").toStdString(),
                    "cannot read the job record file");
        QTemporaryDir empty;
        expectError({empty.path().toStdString()}, empty.path().toStdString(),
                    "the folder holds no files");
    }
};

QTEST_APPLESS_MAIN(TestJobRecordReader)
#include "tst_job_record_reader.moc"
