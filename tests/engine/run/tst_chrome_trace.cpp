// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <map>
#include <set>

#include "export/chrome_trace.h"
#include "runtime/world.h"

using namespace hsdp;
using Json = nlohmann::ordered_json;

namespace {

TraceEvent makeEvent(int rank, int64_t seq, std::string op, double start, double end) {
    TraceEvent event;
    event.rank = rank;
    event.seq = seq;
    event.op = std::move(op);
    event.groupRanks = {0, 1};
    event.bytes = 128 * (rank + 1);
    event.startUs = start;
    event.endUs = end;
    return event;
}

}  // namespace

class TestChromeTrace : public QObject {
    Q_OBJECT
private slots:
    void structureFromHandMadeTrace() {
        Trace trace;
        TraceEvent gather = makeEvent(0, 4, "all_gather", 10.5, 30.25);
        gather.label.phase = "gather";
        gather.label.scheduleIndex = 2;
        gather.label.group = 1;
        gather.label.batch = 0;
        gather.label.mesh = "dp_shard";
        gather.label.meshDim = 1;
        gather.label.params = {3, 5};
        gather.label.segments = {{3, 0, 96, 32}, {5, 128, 40, 24}};
        trace.events.push_back(gather);
        trace.events.push_back(makeEvent(1, 4, "all_gather", 11, 29));
        trace.events.push_back(makeEvent(1, 5, "barrier", 40, 39));  // clock skew: dur clamps to 0

        ChromeTraceOptions options;
        options.paramNames = {"a", "b", "c", "wq", "e", "wk"};
        options.worldSize = 3;
        const Json json = traceToChromeJson(trace, options);
        QCOMPARE(json["displayTimeUnit"].get<std::string>(), std::string("ms"));
        QVERIFY(json["traceEvents"].is_array());

        std::map<int, std::string> processNames;
        std::vector<Json> complete;
        for (const auto& event : json["traceEvents"]) {
            if (event["ph"] == "M" && event["name"] == "process_name")
                processNames[event["pid"].get<int>()] = event["args"]["name"].get<std::string>();
            if (event["ph"] == "X") complete.push_back(event);
        }
        QCOMPARE(processNames,
                 (std::map<int, std::string>{{0, "rank 0"}, {1, "rank 1"}, {2, "rank 2"}}));
        QCOMPARE(static_cast<int>(complete.size()), 3);

        const Json& first = complete[0];
        QCOMPARE(first["name"].get<std::string>(), std::string("all_gather (gather)"));
        QCOMPARE(first["pid"].get<int>(), 0);
        QCOMPARE(first["ts"].get<double>(), 10.5);
        QCOMPARE(first["dur"].get<double>(), 19.75);
        const Json& args = first["args"];
        QCOMPARE(args["op"].get<std::string>(), std::string("all_gather"));
        QCOMPARE(args["seq"].get<int64_t>(), int64_t(4));
        QCOMPARE(args["group_ranks"].get<std::vector<int>>(), (std::vector<int>{0, 1}));
        QCOMPARE(args["bytes"].get<int64_t>(), int64_t(128));
        QCOMPARE(args["step"].get<int>(), 2);
        QCOMPARE(args["group"].get<int>(), 1);
        QCOMPARE(args["batch"].get<int>(), 0);
        QCOMPARE(args["phase"].get<std::string>(), std::string("gather"));
        QCOMPARE(args["mesh"].get<std::string>(), std::string("dp_shard"));
        QCOMPARE(args["mesh_dim"].get<int>(), 1);
        QVERIFY(args["tp_transition"].is_null());
        QCOMPARE(args["params"].get<std::vector<int>>(), (std::vector<int>{3, 5}));
        QCOMPARE(args["param_names"].get<std::vector<std::string>>(),
                 (std::vector<std::string>{"wq", "wk"}));
        QCOMPARE(args["segments"].size(), size_t(2));
        QCOMPARE(args["segments"][1]["param"].get<int>(), 5);
        QCOMPARE(args["segments"][1]["offset"].get<int64_t>(), int64_t(128));
        QCOMPARE(args["segments"][1]["length"].get<int64_t>(), int64_t(40));
        QCOMPARE(args["segments"][1]["padding"].get<int64_t>(), int64_t(24));

        const Json& unlabeled = complete[1];
        QCOMPARE(unlabeled["name"].get<std::string>(), std::string("all_gather"));
        QVERIFY(unlabeled["args"]["step"].is_null());
        QVERIFY(unlabeled["args"]["phase"].is_null());
        QCOMPARE(complete[2]["dur"].get<double>(), 0.0);
    }

    // A real run's trace: one X event per collective per rank, pids = ranks,
    // and the serialised text parses back.
    void fromRealRun() {
        TraceRecorder recorder;
        WorldOptions options;
        options.worldSize = 3;
        options.timeout = std::chrono::seconds(20);
        options.trace = &recorder;
        runWorld(options, {}, [](RankContext& ctx) {
            CollectiveLabel label;
            label.phase = "tp";
            label.tpTransition = 0;
            float value = static_cast<float>(ctx.rank());
            ctx.world().allReduce(&value, 1, DType::F32, ReduceOp::Sum, label);
            ctx.world().barrier(label);
        });
        const Json json = Json::parse(traceToChromeJson(recorder.take()).dump());
        std::map<int, int> perPid;
        std::set<int64_t> seqs;
        for (const auto& event : json["traceEvents"]) {
            if (event["ph"] != "X") continue;
            perPid[event["pid"].get<int>()] += 1;
            seqs.insert(event["args"]["seq"].get<int64_t>());
            QCOMPARE(event["args"]["tp_transition"].get<int>(), 0);
            QVERIFY(event["dur"].get<double>() >= 0);
        }
        QCOMPARE(perPid, (std::map<int, int>{{0, 2}, {1, 2}, {2, 2}}));
        QCOMPARE(static_cast<int>(seqs.size()), 2);
    }

    // Compute spans are slices of their rank; a collective of several
    // members is linked by flows from the first to start to each other one,
    // a one-rank collective and a compute span by none.
    void computeSlicesAndFlows() {
        Trace trace;
        TraceEvent pack = makeEvent(0, -1, "pack", 1, 2);
        pack.groupRanks = {0};
        pack.bytes = 0;
        pack.label.phase = "gather";
        trace.events.push_back(pack);
        trace.events.push_back(makeEvent(0, 7, "all_gather", 5, 9));
        trace.events.push_back(makeEvent(1, 7, "all_gather", 3, 9));
        trace.events.push_back(makeEvent(2, 7, "all_gather", 4, 9));
        for (auto& e : trace.events)
            if (e.seq == 7) e.groupRanks = {0, 1, 2};
        TraceEvent lonely = makeEvent(1, 8, "broadcast", 10, 11);
        lonely.groupRanks = {1};
        trace.events.push_back(lonely);

        const Json json = Json::parse(traceToChromeJson(trace).dump());
        int slices = 0;
        std::vector<Json> starts, finishes;
        for (const auto& event : json["traceEvents"]) {
            if (event["ph"] == "X") {
                ++slices;
                const bool compute = event["args"]["op"] == "pack";
                QCOMPARE(event["cat"].get<std::string>(),
                         std::string(compute ? "compute" : "collective"));
            }
            if (event["ph"] == "s") starts.push_back(event);
            if (event["ph"] == "f") finishes.push_back(event);
        }
        QCOMPARE(slices, 5);
        QCOMPARE(int(starts.size()), 1);
        QCOMPARE(starts[0]["pid"].get<int>(), 1);  // rank 1 started first
        QCOMPARE(starts[0]["ts"].get<double>(), 3.0);
        QCOMPARE(starts[0]["id"].get<int64_t>(), int64_t(7));
        QCOMPARE(starts[0]["cat"].get<std::string>(), std::string("collective"));
        std::set<int> finished;
        for (const auto& f : finishes) {
            QCOMPARE(f["id"].get<int64_t>(), int64_t(7));
            QCOMPARE(f["bp"].get<std::string>(), std::string("e"));
            QCOMPARE(f["cat"].get<std::string>(), std::string("collective"));
            const int pid = f["pid"].get<int>();
            finished.insert(pid);
            // Inside that participant's slice, so the arrow lands on it.
            const double ts = f["ts"].get<double>();
            QCOMPARE(ts, pid == 0 ? 5.0 : 4.0);
        }
        QCOMPARE(finished, (std::set<int>{0, 2}));
    }
};

QTEST_APPLESS_MAIN(TestChromeTrace)
#include "tst_chrome_trace.moc"
