// SPDX-License-Identifier: Apache-2.0
// Kineto traces (docs/job-records.md): the record_param_comms events read as
// the collectives the profiler recorded, the rank from distributedInfo;
// malformed collectives are errors at their JSON path.
#include <QtTest>

#include <QTemporaryDir>
#include <fstream>
#include <functional>

#include "job_record/kineto_reader.h"
#include "kineto_trace_fixture.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

using Change = std::function<void(TraceJson&)>;

TraceJson& firstCollectiveArgs(TraceJson& trace) {
    return trace["traceEvents"][1]["args"];
}

}  // namespace

Q_DECLARE_METATYPE(Change)

class TestKinetoReader : public QObject {
    Q_OBJECT
private slots:
    void readsTheCollectivesAndTheRank() {
        const KinetoTrace trace = readKinetoTrace(kinetoTrace(1).dump());
        QCOMPARE(trace.rank, std::optional<int64_t>(1));
        QCOMPARE(trace.worldSize, std::optional<int64_t>(2));
        QCOMPARE(trace.backend, std::string("nccl"));
        // The kernel carries the same args but is not a record_param_comms op.
        QCOMPARE(trace.collectives.size(), size_t(2));
        const KinetoCollective& gather = trace.collectives[0];
        QCOMPARE(gather.eventIndex, size_t(1));
        QCOMPARE(gather.collectiveName, std::string("_allgather_base"));
        QCOMPARE(gather.inNelems, int64_t(512));
        QCOMPARE(gather.outNelems, int64_t(1024));
        QCOMPARE(gather.groupSize, int64_t(2));
        QCOMPARE(gather.dtype, std::string("BFloat16"));
        QCOMPARE(gather.pgName, std::string("1"));
        QCOMPARE(gather.pgDesc, std::string("mesh_dp"));
        QCOMPARE(gather.pgRanks, (std::vector<int64_t>{0, 1}));
        QCOMPARE(gather.seq, std::optional<int64_t>(3));
        QCOMPARE(gather.tsUs, 110.25);
        QCOMPARE(gather.durUs, 12.5);
        QCOMPARE(trace.collectives[1].collectiveName, std::string("allreduce"));
        QCOMPARE(trace.collectives[1].tsUs, 150.5);
    }

    void aTraceWithoutDistributedInfoHasNoRank() {
        QVERIFY(!readKinetoTrace(kinetoTrace(0, false).dump()).rank);
    }

    // Older profilers leave out the group's name, description and ranks.
    void groupArgsAreOptional() {
        TraceJson trace = kinetoTrace(0);
        for (const char* key :
             {"Process Group Name", "Process Group Description", "Process Group Ranks", "Seq"})
            firstCollectiveArgs(trace).erase(key);
        const auto read = readKinetoTrace(trace.dump());
        QVERIFY(read.collectives[0].pgRanks.empty());
        QVERIFY(!read.collectives[0].seq);
    }

    void malformedTracesNameTheirPath_data() {
        QTest::addColumn<Change>("change");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("mentions");
        const auto row = [](const char* tag, Change change, const char* where,
                            const char* mentions) {
            QTest::newRow(tag) << change << QString(where) << QString(mentions);
        };
        row(
            "no traceEvents", [](TraceJson& t) { t.erase("traceEvents"); }, "", "traceEvents");
        row(
            "events not a list", [](TraceJson& t) { t["traceEvents"] = 3; }, "/traceEvents",
            "expected");
        row(
            "event not an object", [](TraceJson& t) { t["traceEvents"][0] = "x"; },
            "/traceEvents/0", "an event");
        row(
            "not a complete event", [](TraceJson& t) { t["traceEvents"][1]["ph"] = "B"; },
            "/traceEvents/1/ph", "\"X\"");
        row(
            "no ts", [](TraceJson& t) { t["traceEvents"][3].erase("ts"); }, "/traceEvents/3", "ts");
        row(
            "negative dur", [](TraceJson& t) { t["traceEvents"][1]["dur"] = -1; },
            "/traceEvents/1/dur", ">= 0");
        row(
            "no args", [](TraceJson& t) { t["traceEvents"][1].erase("args"); }, "/traceEvents/1",
            "args");
        row(
            "no collective name",
            [](TraceJson& t) { firstCollectiveArgs(t).erase("Collective name"); },
            "/traceEvents/1/args", "Collective name");
        row(
            "nelems as text", [](TraceJson& t) { firstCollectiveArgs(t)["In msg nelems"] = "512"; },
            "/traceEvents/1/args/In msg nelems", "expected an integer");
        row(
            "group of zero", [](TraceJson& t) { firstCollectiveArgs(t)["Group size"] = 0; },
            "/traceEvents/1/args/Group size", "expected an integer >= 1");
        row(
            "ranks not a list",
            [](TraceJson& t) { firstCollectiveArgs(t)["Process Group Ranks"] = "0, 1"; },
            "/traceEvents/1/args/Process Group Ranks", "a list of ranks");
        row(
            "ranks against the size",
            [](TraceJson& t) { firstCollectiveArgs(t)["Process Group Ranks"] = "[0, 1, 2]"; },
            "/traceEvents/1/args/Process Group Ranks", "lists 3 ranks, but \"Group size\" is 2");
        row(
            "rank as text", [](TraceJson& t) { t["distributedInfo"]["rank"] = "1"; },
            "/distributedInfo/rank", "expected an integer");
        row(
            "rank past the world", [](TraceJson& t) { t["distributedInfo"]["rank"] = 2; },
            "/distributedInfo/rank", "not below world_size 2");
    }
    void malformedTracesNameTheirPath() {
        QFETCH(Change, change);
        QFETCH(QString, where);
        QFETCH(QString, mentions);
        TraceJson trace = kinetoTrace(1);
        change(trace);
        try {
            readKinetoTrace(trace.dump());
            QFAIL("no error");
        } catch (const JobRecordError& e) {
            QVERIFY2(e.where == where.toStdString(), e.what());
            QVERIFY2(std::string(e.what()).find(mentions.toStdString()) != std::string::npos,
                     e.what());
        }
    }

    void truncatedTracesAreErrors() {
        const std::string whole = kinetoTrace(0).dump();
        for (size_t size = 0; size < whole.size(); size += 11)
            QVERIFY_THROWS_EXCEPTION(JobRecordError, readKinetoTrace(whole.substr(0, size)));
    }

    void fileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("rank0.pt.trace.json").toStdString();
        TraceJson trace = kinetoTrace(0);
        trace["traceEvents"][3]["args"]["dtype"] = 5;
        std::ofstream(path) << trace.dump();
        try {
            readKinetoTraceFile(path);
            QFAIL("no error");
        } catch (const JobRecordError& e) {
            QCOMPARE(e.file, path);
            QVERIFY(std::string(e.what()).starts_with(path + ": /traceEvents/3/args/dtype: "));
        }
    }

    void tellsTracesFromDumps() {
        QVERIFY(looksLikeKinetoTrace(kinetoTrace(0).dump(2)));
        QVERIFY(!looksLikeKinetoTrace(R"({"version": "2.4", "pg_config": {}})"));
    }
};

QTEST_APPLESS_MAIN(TestKinetoReader)
#include "tst_kineto_reader.moc"
