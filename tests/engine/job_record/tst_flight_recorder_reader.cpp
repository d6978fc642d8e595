// SPDX-License-Identifier: Apache-2.0
// Flight Recorder dumps (docs/job-records.md): every version 2.3 to 2.10,
// pickled as PyTorch writes them and as JSON, reads as the collectives it
// was written from; other versions, malformed fields and truncated files
// are errors naming the file and the JSON path.
#include <QtTest>

#include <QTemporaryDir>
#include <fstream>
#include <functional>

#include "flight_recorder_fixture.h"
#include "job_record/flight_recorder_reader.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

// The versions PyTorch 2.3 to 2.10 write, as the issue and PyTorch name them.
const char* const kVersions[] = {"2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10"};

std::string encode(const PickleJson& dump, bool asJson) {
    return asJson ? plainJson(dump).dump() : writePickle(dump, 2, true);
}

void compareEntry(const FlightRecorderEntry& read, const FixtureCollective& wrote, bool asJson,
                  const std::string& version, int64_t index) {
    QCOMPARE(read.recordId, index);
    QCOMPARE(read.pgName, wrote.pgName);
    QCOMPARE(read.pgDesc, wrote.pgDesc);
    QCOMPARE(read.profilingName, wrote.profilingName);
    QCOMPARE(read.collectiveSeqId, wrote.collectiveSeqId);
    QCOMPARE(read.p2pSeqId, wrote.p2pSeqId);
    QCOMPARE(read.opId, wrote.opId);
    QCOMPARE(read.inputSizes, wrote.inputSizes);
    QCOMPARE(read.outputSizes, wrote.outputSizes);
    QCOMPARE(read.inputDtypes, std::vector<std::string>(wrote.inputSizes.size(), wrote.dtype));
    QCOMPARE(read.outputDtypes, std::vector<std::string>(wrote.outputSizes.size(), wrote.dtype));
    QCOMPARE(std::string(collectiveStateName(read.state)), wrote.state);
    QCOMPARE(read.isP2P, wrote.isP2P);
    const bool completed = wrote.state == "completed";
    QCOMPARE(read.retired, completed);
    QCOMPARE(read.durationMs.has_value(), completed);
    if (completed) QCOMPARE(*read.durationMs, 0.25);
    QCOMPARE(read.timeDiscoveredStartedNs.has_value(), wrote.state != "scheduled");
    QCOMPARE(read.timeDiscoveredCompletedNs.has_value(), completed);
    if (completed) QCOMPARE(*read.timeDiscoveredCompletedNs - read.timeCreatedNs, int64_t(20));
    QCOMPARE(read.timeoutMs, int64_t(600000));
    QCOMPARE(read.threadName, std::string(version == "2.10" ? "pt_main_thread" : ""));
    QCOMPARE(read.frames.size(), size_t(asJson ? 0 : 2));
    if (!asJson) {
        QCOMPARE(read.frames[1].line, int64_t(83));
        QCOMPARE(read.frames[0].filename, std::string("torch/distributed/distributed_c10d.py"));
    }
}

void expectError(const std::string& bytes, const std::string& where, const std::string& mentions) {
    try {
        readFlightRecorderDump(bytes);
        QFAIL(qPrintable(QString::fromStdString("no error; expected one at " + where)));
    } catch (const JobRecordError& e) {
        QVERIFY2(e.where == where, e.what());
        QVERIFY2(std::string(e.what()).find(mentions) != std::string::npos, e.what());
    }
}

using Change = std::function<void(PickleJson&)>;

PickleJson& firstEntry(PickleJson& dump) {
    return dump["entries"][0];
}

}  // namespace

Q_DECLARE_METATYPE(Change)

class TestFlightRecorderReader : public QObject {
    Q_OBJECT
private slots:
    void everyVersionReadsInBothEncodings_data() {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("asJson");
        for (const char* version : kVersions) {
            QTest::addRow("%s pickle", version) << QString(version) << false;
            QTest::addRow("%s json", version) << QString(version) << true;
        }
    }
    void everyVersionReadsInBothEncodings() {
        QFETCH(QString, version);
        QFETCH(bool, asJson);
        const std::string v = version.toStdString();
        const int rank = 3;
        const FlightRecorderDump dump =
            readFlightRecorderDump(fixtureDumpBytes(v, asJson, rank, 4));
        QCOMPARE(dump.version, v);
        QVERIFY(dump.encoding == (asJson ? DumpEncoding::Json : DumpEncoding::Pickle));
        QCOMPARE(dump.commLibVersion, std::string(v == "2.10"                  ? "2.21.5"
                                                  : (v == "2.3" || v == "2.4") ? ""
                                                                               : "2.20.5"));
        const auto groups = fixtureGroups(rank, 4);
        QCOMPARE(dump.groups.size(), groups.size());
        for (size_t g = 0; g < groups.size(); ++g) {
            QCOMPARE(dump.groups[g].name, groups[g].name);
            QCOMPARE(dump.groups[g].desc, groups[g].desc);
            QCOMPARE(dump.groups[g].ranks, groups[g].ranks);
        }
        QCOMPARE(dump.groups[1].ranks, (std::vector<int64_t>{2, 3}));
        const auto collectives = fixtureCollectives(rank);
        QCOMPARE(dump.entries.size(), collectives.size());
        for (size_t i = 0; i < collectives.size(); ++i) {
            compareEntry(dump.entries[i], collectives[i], asJson, v, int64_t(i));
            if (QTest::currentTestFailed()) QFAIL(qPrintable(QString("entry %1").arg(i)));
        }
        QCOMPARE(dump.status.size(), size_t(2));
        QCOMPARE(dump.status[1].pgId, int64_t(1));
        QCOMPARE(dump.status[1].lastStarted, int64_t(1));
        QCOMPARE(dump.status[0].lastStarted, int64_t(2));
    }

    void profilingNamesSplitIntoBackendAndOperation() {
        const auto dump = readFlightRecorderDump(fixtureDumpBytes("2.4", false, 1, 2));
        QCOMPARE(dump.entries[1].backend(), std::string_view("nccl"));
        QCOMPARE(dump.entries[1].operation(), std::string_view("_all_gather_base"));
        QCOMPARE(dump.entries[3].operation(), std::string_view("recv"));
    }

    // Python's pickle.dumps of a loaded dump (protocol 4) reads the same.
    void protocol4ReadsLikeProtocol2() {
        const PickleJson dump = fixtureDump("2.10", false, 0, 2);
        const auto a = readFlightRecorderDump(writePickle(dump, 2, true));
        const auto b = readFlightRecorderDump(writePickle(dump, 4));
        QCOMPARE(a.entries.size(), b.entries.size());
        QCOMPARE(a.entries[2].inputSizes, b.entries[2].inputSizes);
        QCOMPARE(a.entries[3].profilingName, b.entries[3].profilingName);
    }

    void emptyDumpsRead() {
        PickleJson dump = fixtureDump("2.6", true, 0, 2);
        dump.erase("entries");  // JSON dumps leave it out when nothing was recorded
        QVERIFY(readFlightRecorderDump(plainJson(dump).dump()).entries.empty());
        dump["entries"] = PickleJson::array();
        QVERIFY(readFlightRecorderDump(writePickle(dump)).entries.empty());
    }

    void otherVersionsAreRefused_data() {
        QTest::addColumn<QString>("versionJson");
        QTest::newRow("2.2") << "\"2.2\"";
        QTest::newRow("2.11") << "\"2.11\"";
        QTest::newRow("3.0") << "\"3.0\"";
        QTest::newRow("2.1 as a number") << "2.1";
        QTest::newRow("empty") << "\"\"";
    }
    void otherVersionsAreRefused() {
        QFETCH(QString, versionJson);
        PickleJson dump = fixtureDump("2.4", true, 0, 2);
        dump["version"] = PickleJson::parse(versionJson.toStdString());
        for (bool asJson : {true, false})
            expectError(
                encode(dump, asJson), "/version",
                "(\"2.3\", \"2.4\", \"2.5\", \"2.6\", \"2.7\", \"2.8\", \"2.9\", \"2.10\")");
    }

    void malformedDumpsNameTheirPath_data() {
        QTest::addColumn<Change>("change");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("mentions");
        const auto row = [](const char* tag, Change change, const char* where,
                            const char* mentions) {
            QTest::newRow(tag) << change << QString(where) << QString(mentions);
        };
        row(
            "not an object", [](PickleJson& d) { d = PickleJson::array({1}); }, "",
            "a Flight Recorder dump");
        row(
            "unknown top key", [](PickleJson& d) { d["extra"] = 1; }, "/extra", "unknown");
        row(
            "no pg_config", [](PickleJson& d) { d.erase("pg_config"); }, "", "pg_config");
        row(
            "entries not a list", [](PickleJson& d) { d["entries"] = "x"; }, "/entries",
            "expected");
        row(
            "no state", [](PickleJson& d) { firstEntry(d).erase("state"); }, "/entries/0", "state");
        row(
            "unknown state", [](PickleJson& d) { firstEntry(d)["state"] = "finished"; },
            "/entries/0/state", "\"scheduled\", \"started\" or \"completed\"");
        row(
            "unknown entry key", [](PickleJson& d) { firstEntry(d)["flavour"] = 1; },
            "/entries/0/flavour", "unknown");
        row(
            "sizes not a list", [](PickleJson& d) { firstEntry(d)["input_sizes"] = "x"; },
            "/entries/0/input_sizes", "expected");
        row(
            "negative dimension", [](PickleJson& d) { firstEntry(d)["input_sizes"][0][0] = -4; },
            "/entries/0/input_sizes/0/0", "expected an integer");
        row(
            "dtype per shape",
            [](PickleJson& d) { firstEntry(d)["output_dtypes"].push_back("Float"); },
            "/entries/0/output_dtypes", "expected 1 dtypes, one per tensor shape, got 2");
        row(
            "group of three",
            [](PickleJson& d) {
                firstEntry(d)["process_group"] = pickleTuple({"0", "a", "b"});
            },
            "/entries/0/process_group", "[name, description]");
        row(
            "group not in pg_config",
            [](PickleJson& d) {
                firstEntry(d)["process_group"] = pickleTuple({"9", "x"});
            },
            "/entries/0/process_group/0", "\"9\" is not in /pg_config");
        row(
            "no backend", [](PickleJson& d) { firstEntry(d)["profiling_name"] = "all_reduce"; },
            "/entries/0/profiling_name", "backend:operation");
        row(
            "negative duration", [](PickleJson& d) { firstEntry(d)["duration_ms"] = -1.0; },
            "/entries/0/duration_ms", ">= 0");
        row(
            "retired as text", [](PickleJson& d) { firstEntry(d)["retired"] = "yes"; },
            "/entries/0/retired", "expected");
        row(
            "record id as float", [](PickleJson& d) { firstEntry(d)["record_id"] = 1.5; },
            "/entries/0/record_id", "expected an integer");
        row(
            "frame line as text",
            [](PickleJson& d) {
                firstEntry(d)["frames"] = {{{"name", "f"}, {"filename", "g"}, {"line", "x"}}};
            },
            "/entries/0/frames/0/line", "expected an integer");
        row(
            "ranks cut short", [](PickleJson& d) { d["pg_config"]["0"]["ranks"] = "[0, 1"; },
            "/pg_config/0/ranks", "a list of ranks");
        row(
            "rank twice", [](PickleJson& d) { d["pg_config"]["0"]["ranks"] = "[0, 0]"; },
            "/pg_config/0/ranks", "rank 0 is listed twice");
        row(
            "group named otherwise", [](PickleJson& d) { d["pg_config"]["1"]["name"] = "2"; },
            "/pg_config/1/name", "the group's key \"1\"");
        row(
            "status key", [](PickleJson& d) { d["pg_status"]["x"] = d["pg_status"]["0"]; },
            "/pg_status/x", "a pg_id");
        row(
            "status value",
            [](PickleJson& d) { d["pg_status"]["0"]["last_started_collective"] = "-5"; },
            "/pg_status/0/last_started_collective", "a sequence id >= -1");
    }
    void malformedDumpsNameTheirPath() {
        QFETCH(Change, change);
        QFETCH(QString, where);
        QFETCH(QString, mentions);
        for (bool asJson : {true, false}) {
            PickleJson dump = fixtureDump("2.7", asJson, 0, 2);
            change(dump);
            expectError(encode(dump, asJson), where.toStdString(), mentions.toStdString());
        }
    }

    // Ranks as a list (older writers) read like the text PyTorch writes now.
    void ranksAsAListRead() {
        PickleJson dump = fixtureDump("2.5", false, 0, 2);
        dump["pg_config"]["0"]["ranks"] = {0, 1};
        QCOMPARE(readFlightRecorderDump(writePickle(dump)).groups[0].ranks,
                 (std::vector<int64_t>{0, 1}));
    }

    void truncatedDumpsAreErrors() {
        for (bool asJson : {true, false}) {
            const std::string whole = fixtureDumpBytes("2.8", asJson, 0, 2);
            for (size_t size = 0; size < whole.size(); size += 17)  // every byte: tst_pickle_reader
                QVERIFY_THROWS_EXCEPTION(JobRecordError,
                                         readFlightRecorderDump(whole.substr(0, size)));
        }
    }

    void fileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("nccl_trace_rank_0").toStdString();
        try {
            readFlightRecorderFile(missing);
            QFAIL("a missing file was read");
        } catch (const JobRecordError& e) {
            QCOMPARE(e.file, missing);
            QVERIFY2(std::string(e.what()).find("cannot read the Flight Recorder dump") !=
                         std::string::npos,
                     e.what());
        }
        const std::string bad = dir.filePath("nccl_trace_rank_1").toStdString();
        PickleJson dump = fixtureDump("2.4", false, 1, 2);
        dump["entries"][2]["state"] = 7;
        std::ofstream(bad, std::ios::binary) << writePickle(dump);
        try {
            readFlightRecorderFile(bad);
            QFAIL("a malformed file was read");
        } catch (const JobRecordError& e) {
            QCOMPARE(e.file, bad);
            QCOMPARE(e.where, std::string("/entries/2/state"));
            QVERIFY(std::string(e.what()).starts_with(bad + ": /entries/2/state: "));
        }
    }

    // A pickle that would run code is refused before anything is read.
    void unsafePicklesAreRefusedAsDumps() {
        const std::string evil = std::string("\x80\x02") + "cos\nsystem\nX" +
                                 std::string("\x02\x00\x00\x00", 4) + "id\x85R.";
        try {
            readFlightRecorderDump(evil);
            QFAIL("an unsafe pickle was read");
        } catch (const JobRecordError& e) {
            QCOMPARE(e.where, std::string("offset 2"));
            QVERIFY2(std::string(e.what()).find("GLOBAL") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestFlightRecorderReader)
#include "tst_flight_recorder_reader.moc"
