// SPDX-License-Identifier: Apache-2.0
// A run's collectives as Flight Recorder dumps (docs/job-records.md, "Runs
// as dumps"): groups named as c10d names them, per-group sequence ids,
// PyTorch's profiling names, sizes in elements of the right dtype, and the
// JSON dump that writeFlightRecorderJson makes reads back the same.
#include <QtTest>

#include "export/flight_recorder_export.h"
#include "job_record/flight_recorder_reader.h"
#include "job_record/flight_recorder_writer.h"

using namespace hsdp;

namespace {

constexpr int64_t kStartNs = 1733500000000000000;

FlightRecorderExportOptions exportOptions() {
    FlightRecorderExportOptions options;
    options.runStartNs = kStartNs;
    options.timeoutMs = 30000;
    return options;
}

Scenario twoByTwo() {
    Scenario s;
    s.name = "t";
    s.worldSize = 4;
    s.meshes.emplace_back("main", std::vector<int64_t>{2, 2}, std::vector<std::string>{"dp", "tp"});
    ParamSpec w, b;
    w.index = 0, w.name = "w", w.shape = {16, 16}, w.dtype = DType::BF16, w.mesh = "main";
    b.index = 1, b.name = "b", b.shape = {16}, b.dtype = DType::F32, b.mesh = "main";
    s.params = {w, b};
    return s;
}

TraceEvent event(int64_t seq, int rank, const std::string& op, std::vector<int> group, int dim,
                 std::vector<int> params, int64_t in, int64_t out, double startUs) {
    TraceEvent e;
    e.seq = seq;
    e.rank = rank;
    e.op = op;
    e.groupRanks = std::move(group);
    e.inputBytes = in;
    e.outputBytes = out;
    e.startUs = startUs;
    e.endUs = startUs + 250;
    e.label.mesh = "main";
    e.label.meshDim = dim;
    e.label.params = std::move(params);
    return e;
}

// Rank 0 (and rank 1 for the first gather): a gather over tp {0, 1}, a
// broadcast over dp {0, 2} of both params (mixed dtypes: bytes), an
// all-reduce of 4 floats over the world, a second gather, a compute span.
Trace sampleTrace() {
    Trace t;
    t.events.push_back(event(0, 0, "all_gather", {0, 1}, 1, {0}, 512, 1024, 10));
    t.events.push_back(event(1, 0, "broadcast", {0, 2}, 0, {0, 1}, 100, 100, 300));
    TraceEvent reduce = event(2, 0, "all_reduce", {0, 1, 2, 3}, -1, {}, 16, 16, 600);
    reduce.dtype = DType::F32;
    t.events.push_back(reduce);
    t.events.push_back(event(3, 0, "all_gather", {0, 1}, 1, {0}, 64, 128, 900));
    TraceEvent pack = event(-1, 0, "pack", {0}, 1, {0}, 0, 0, 1200);
    t.events.push_back(pack);
    t.events.push_back(event(0, 1, "all_gather", {0, 1}, 1, {0}, 512, 1024, 12));
    return t;
}

}  // namespace

class TestFlightRecorderExport : public QObject {
    Q_OBJECT
private slots:
    void groupsAreNamedAsC10dNamesThem() {
        const auto dumps = runFlightRecorderDumps(sampleTrace(), twoByTwo(), 4, exportOptions());
        QCOMPARE(dumps.size(), size_t(4));
        const auto& groups = dumps[0].groups;
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].name, std::string("0"));
        QCOMPARE(groups[0].desc, std::string("default_pg"));
        QCOMPARE(groups[0].ranks, (std::vector<int64_t>{0, 1, 2, 3}));
        QCOMPARE(groups[1].name, std::string("1"));  // first used
        QCOMPARE(groups[1].desc, std::string("mesh_tp"));
        QCOMPARE(groups[1].ranks, (std::vector<int64_t>{0, 1}));
        QCOMPARE(groups[2].desc, std::string("mesh_dp"));
        QCOMPARE(groups[2].ranks, (std::vector<int64_t>{0, 2}));
        // Rank 1 is in the world and in tp {0, 1} only; rank 3 in the world only.
        QCOMPARE(dumps[1].groups.size(), size_t(2));
        QCOMPARE(dumps[1].groups[1].name, std::string("1"));
        QCOMPARE(dumps[3].groups.size(), size_t(1));
        QVERIFY(dumps[3].entries.empty());
    }

    void entriesAreRecordedAsPyTorchWould() {
        const auto dumps = runFlightRecorderDumps(sampleTrace(), twoByTwo(), 4, exportOptions());
        const auto& e = dumps[0].entries;
        QCOMPARE(e.size(), size_t(4));  // the compute span is not a collective
        QCOMPARE(e[0].profilingName, std::string("nccl:_all_gather_base"));
        QCOMPARE(e[0].inputSizes, (std::vector<std::vector<int64_t>>{{256}}));  // 512 bytes of bf16
        QCOMPARE(e[0].outputSizes, (std::vector<std::vector<int64_t>>{{512}}));
        QCOMPARE(e[0].inputDtypes, std::vector<std::string>{"BFloat16"});
        QCOMPARE(e[1].profilingName, std::string("nccl:broadcast"));
        QCOMPARE(e[1].inputDtypes, std::vector<std::string>{"Byte"});  // bf16 and f32 together
        QCOMPARE(e[1].inputSizes, (std::vector<std::vector<int64_t>>{{100}}));
        QCOMPARE(e[2].profilingName, std::string("nccl:all_reduce"));
        QCOMPARE(e[2].inputSizes, (std::vector<std::vector<int64_t>>{{4}}));
        QCOMPARE(e[2].outputDtypes, std::vector<std::string>{"Float"});
        // Sequence ids count per group: tp 1, dp 1, world 1, tp 2.
        QCOMPARE(e[0].collectiveSeqId, int64_t(1));
        QCOMPARE(e[1].collectiveSeqId, int64_t(1));
        QCOMPARE(e[2].collectiveSeqId, int64_t(1));
        QCOMPARE(e[3].collectiveSeqId, int64_t(2));
        QCOMPARE(e[3].opId, int64_t(2));
        QCOMPARE(e[3].pgId, int64_t(1));  // rank 0's second group
        QCOMPARE(e[2].pgId, int64_t(0));
        QCOMPARE(e[3].recordId, int64_t(3));
        QCOMPARE(e[1].timeCreatedNs, kStartNs + 300000);
        QCOMPARE(*e[1].durationMs, 0.25);
        QCOMPARE(*e[1].timeDiscoveredCompletedNs, kStartNs + 550000);
        QVERIFY(e[1].state == CollectiveState::Completed && e[1].retired && !e[1].isP2P);
        QCOMPARE(e[1].timeoutMs, int64_t(30000));
        QCOMPARE(dumps[0].status[1].lastCompleted, int64_t(2));  // tp's last
        QCOMPARE(dumps[0].status[0].lastCompleted, int64_t(1));
    }

    void dumpsReadBackAsWritten() {
        const auto dumps = runFlightRecorderDumps(sampleTrace(), twoByTwo(), 4, exportOptions());
        const std::string text = writeFlightRecorderJson(dumps[0]);
        const FlightRecorderDump read = readFlightRecorderDump(text);
        QCOMPARE(read.version, std::string("2.10"));
        QCOMPARE(read.entries.size(), dumps[0].entries.size());
        QCOMPARE(read.entries[3].outputSizes, dumps[0].entries[3].outputSizes);
        QCOMPARE(read.groups.size(), size_t(3));
        QCOMPARE(writeFlightRecorderJson(read), text);
        // PyTorch's JSON conventions: ranks as text, sequence ids as text.
        const auto json = nlohmann::json::parse(text);
        QCOMPARE(json["pg_config"]["1"]["ranks"].get<std::string>(), std::string("[0, 1]"));
        QCOMPARE(json["pg_status"]["1"]["last_started_collective"].get<std::string>(),
                 std::string("2"));
    }
};

QTEST_APPLESS_MAIN(TestFlightRecorderExport)
#include "tst_flight_recorder_export.moc"
