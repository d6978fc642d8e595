// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect check-job as a user runs it (docs/job-records.md, "Checking a
// job against its plan"): the dumps `run --flight-recorder` writes are
// exactly the plan for every sample and worked example, in JSON and as
// pickles; a failed run's are not, naming the rank; unreadable dumps and
// scenarios exit 2 naming the file; --json has the documented keys.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "job_record/job_record_reader.h"
#include "kineto_trace_fixture.h"
#include "pickle_writer.h"
#include "run_budget.h"
#include "sample_rows.h"

using namespace hsdp::testing;
using Json = nlohmann::json;

namespace {

// The sanitizer presets' run budget, as `run` takes it.
QStringList budgetArgs() {
    if (runBudgetDivisor() == 1) return {};
    const hsdp::RunOptions options = budgetedRunOptions();
    return {"--max-bytes", QString::number(options.maxBytes), "--max-flops",
            QString::number(options.flopBudget)};
}

// `run --flight-recorder DIR` of `scenario`; the run's exit code (and its output).
int recordRun(const QString& scenario, const QString& dir, const QStringList& extra = {},
              QByteArray* out = nullptr) {
    const auto r =
        inspect(QStringList{"run", scenario, "--flight-recorder", dir} + budgetArgs() + extra);
    if (r.exitCode == 2) qWarning("%s", r.err.constData());
    if (out) *out = r.out;
    return r.exitCode;
}

int64_t entriesIn(const QString& dir) {
    const hsdp::JobRecord job = hsdp::readJobRecord({dir.toStdString()});
    int64_t entries = 0;
    for (const auto& [rank, dump] : job.dumps) entries += int64_t(dump.entries.size());
    return entries;
}

Json parse(const QByteArray& bytes) {
    return Json::parse(bytes.toStdString());
}

// A JSON dump as PyTorch pickles it: process_group a tuple, pg_status's seq
// ids numbers, an unseen time None.
PickleJson asPickled(const Json& dump) {
    PickleJson out = PickleJson::parse(dump.dump());
    for (auto& [id, status] : out["pg_status"].items())
        for (auto& [key, value] : status.items()) value = std::stoll(value.get<std::string>());
    for (auto& e : out["entries"]) {
        e["process_group"] = pickleTuple(e["process_group"]);
        for (const char* key : {"time_discovered_started_ns", "time_discovered_completed_ns"})
            if (e[key] == 0) e[key] = nullptr;
    }
    return out;
}

void writeBytes(const QString& path, const std::string& bytes) {
    std::ofstream(path.toStdString(), std::ios::binary) << bytes;
}

std::set<std::string> keysOf(const Json& object) {
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items()) keys.insert(key);
    return keys;
}

QByteArray fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestCliCheckJob : public QObject {
    Q_OBJECT
private slots:
    void runDumpsAreExactlyThePlan_data() {
        QTest::addColumn<QString>("path");
        // The all-to-all gather strategy's uneven exchange too.
        const QStringList paths = scenarioPaths() << sample("diff/llama3_8b_all_to_all.json");
        for (const QString& path : paths) {
            const bool small = path.contains("teaching") || path.contains("tests/data/examples");
            if (runBudgetDivisor() == 1 || small)  // under the sanitizers, the small ones
                QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
        }
    }

    void runDumpsAreExactlyThePlan() {
        QFETCH(QString, path);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QByteArray ran;
        QVERIFY(recordRun(path, dir, {}, &ran) != 2);
        // A shrunk run says whose sizes its dumps hold (the 8B step's larger
        // broadcasts are in more chunks at the real shapes) and records no
        // durations, which would be of smaller tensors; a run of the real
        // shapes records them.
        const QByteArray rank0 = fileText(dir + "/nccl_trace_rank_0.json");
        if (path.endsWith("samples/llama3_8b_hsdp_2x4.json")) {
            QVERIFY2(ran.contains("Flight Recorder dumps: the plan's collectives at its real "
                                  "sizes (its larger broadcasts in more chunks") &&
                         ran.contains("no durations (duration_ms)"),
                     ran.constData());
            QVERIFY(!rank0.contains("\"duration_ms\""));
        }
        if (path.endsWith("samples/teaching_2x2.json")) QVERIFY(rank0.contains("\"duration_ms\""));
        const auto r = inspect({"check-job", path, dir, "--json"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const Json check = parse(r.out);
        QCOMPARE(check["matched"].get<int64_t>(), entriesIn(dir));
        QVERIFY(check["divergences"].empty());
        QVERIFY(check["first"].is_null());
    }

    void pickledDumpsAreThePlanToo() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr"), pickles = tmp.filePath("pkl");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir), 0);
        QVERIFY(QDir().mkpath(pickles));
        for (const QString& name : QDir(dir).entryList(QDir::Files)) {
            QFile file(dir + "/" + name);
            QVERIFY(file.open(QIODevice::ReadOnly));
            // PyTorch's own file name: no extension.
            writeBytes(pickles + "/" + QFileInfo(name).completeBaseName(),
                       writePickle(asPickled(parse(file.readAll())), 2));
        }
        const auto r = inspect({"check-job", sample("teaching_2x2.json"), pickles, "--json"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QCOMPARE(parse(r.out)["matched"].get<int64_t>(), entriesIn(dir));
        const auto text = inspect({"check-job", sample("teaching_2x2.json"), pickles});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("exactly the plan"), text.out.constData());
    }

    // A run of the real shapes records durations: check-job lays them per op
    // beside the model's on the cluster, every collective timed by every
    // member; a shrunk run's dumps have none and no such block.
    void recordedTimesBesideThePrediction() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir), 0);
        const auto json = inspect({"check-job", sample("teaching_2x2.json"), dir, "--json"});
        QCOMPARE(json.exitCode, 0);
        const Json timings = parse(json.out)["timings"];
        QVERIFY2(timings.is_object(), json.out.constData());
        QCOMPARE(timings["cluster"].get<std::string>(), std::string("loopback"));
        QVERIFY(timings["timed"].get<int64_t>() > 0);
        QCOMPARE(timings["timed"], timings["collectives"]);  // every member timed every one
        int64_t counted = 0;
        for (const auto& op : timings["ops"]) {
            counted += op["count"].get<int64_t>();
            QVERIFY(op["recorded_seconds"].get<double>() > 0);
            QVERIFY(op["predicted_seconds"].get<double>() > 0);
            // The sums' ratio is given beside the median, each said for what it weighs.
            QCOMPARE(op["recorded_over_predicted"].get<double>(),
                     op["recorded_seconds"].get<double>() / op["predicted_seconds"].get<double>());
        }
        QCOMPARE(counted, timings["timed"].get<int64_t>());
        // Per rank, the record's collectives beside the same rank's planned
        // ones: as many, each side's time in them within its span.
        const hsdp::JobRecord record = hsdp::readJobRecord({dir.toStdString()});
        const Json ranks = parse(json.out)["rank_timings"];
        QCOMPARE(ranks.size(), record.dumps.size());
        for (const Json& r : ranks) {
            const auto& dump = record.dumps.at(r["rank"].get<int64_t>());
            QCOMPARE(r["recorded_collectives"].get<size_t>(), dump.entries.size());
            QCOMPARE(r["predicted_collectives"], r["recorded_collectives"]);
            QCOMPARE(r["never_completed"].get<int>(), 0);
            for (const char* side : {"recorded", "predicted"}) {
                const double in = r[std::string(side) + "_seconds"].get<double>();
                const double span = r[std::string(side) + "_span_seconds"].get<double>();
                QVERIFY2(in > 0 && in <= span * (1 + 1e-9), side);
            }
        }
        const auto defaulted = inspect({"check-job", sample("teaching_2x2.json"), dir});
        QVERIFY2(defaulted.out.contains("on loopback (the default: --cluster names the job's "
                                        "cluster)"),
                 defaulted.out.constData());
        QVERIFY2(defaulted.out.contains("recorded/predicted"), defaulted.out.constData());
        const auto text =
            inspect({"check-job", sample("teaching_2x2.json"), dir, "--cluster", "h100-dgx"});
        QVERIFY2(text.out.contains("Recorded times beside the model's on h100-dgx, ") &&
                     text.out.contains("Per rank, the recorded collectives beside the predicted "
                                       "ones on h100-dgx"),
                 text.out.constData());

        const QString shrunk = tmp.filePath("shrunk");  // every dim halved to fit 30,000 bytes
        QCOMPARE(inspect({"run", sample("teaching_2x2.json"), "--flight-recorder", shrunk,
                          "--max-bytes", "30000"})
                     .exitCode,
                 0);
        const auto untimed = inspect({"check-job", sample("teaching_2x2.json"), shrunk, "--json"});
        QVERIFY(parse(untimed.out)["timings"].is_null());
        QVERIFY(parse(untimed.out)["rank_timings"].is_null());
    }

    // Rank 2 fails at its third collective: it never recorded it, its peers
    // hang in it. The JSON has every documented key.
    void failedRunIsNotThePlan() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir,
                           {"--inject-fault", "2:3", "--timeout", "30"}),
                 1);
        const auto text = inspect({"check-job", sample("teaching_2x2.json"), dir});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("look first at:\n  rank 2 never recorded"),
                 text.out.constData());
        QVERIFY2(text.out.contains("never completed"), text.out.constData());

        const auto r = inspect({"check-job", sample("teaching_2x2.json"), dir, "--json"});
        QCOMPARE(r.exitCode, 1);
        const Json check = parse(r.out);
        QCOMPARE(keysOf(check),
                 (std::set<std::string>{"format", "scenario", "ranks", "ranks_from_trace",
                                        "record_world_size", "matched", "divergences", "first",
                                        "timings", "rank_timings"}));
        QCOMPARE(check["format"].get<std::string>(), std::string("hsdp-job-check/1"));
        QCOMPARE(check["ranks"], Json({0, 1, 2, 3}));
        const std::set<std::string> kinds = {"missing", "unexpected", "size",
                                             "dtype",   "stuck",      "order"};
        std::set<std::string> seen;
        for (const Json& d : check["divergences"]) {
            const auto keys = keysOf(d);
            for (const char* key : {"kind", "rank", "process_group", "collective_seq_id",
                                    "training_step", "expected", "recorded", "text"})
                QVERIFY2(keys.count(key), key);
            QVERIFY(kinds.count(d["kind"].get<std::string>()));
            seen.insert(d["kind"].get<std::string>());
            QVERIFY(d["process_group"]["ranks"].is_array());
            if (!d["expected"].is_null())
                QCOMPARE(keysOf(d["expected"]),
                         (std::set<std::string>{"op", "schedule_entry", "batch", "group",
                                                "tp_transition", "params"}));
            if (!d["recorded"].is_null())
                QCOMPARE(keysOf(d["recorded"]),
                         (std::set<std::string>{"profiling_name", "input_sizes", "output_sizes",
                                                "input_dtypes", "state"}));
        }
        QCOMPARE(seen, (std::set<std::string>{"missing", "stuck"}));
        QCOMPARE(check["first"]["kind"].get<std::string>(), std::string("missing"));
        QCOMPARE(check["first"]["rank"].get<int>(), 2);
        QVERIFY(check["first"]["recorded"].is_null());
        QVERIFY(!check["first"]["expected"]["params"].empty());
        // The stuck ranks' last collectives never completed; rank 2 left none open.
        for (const Json& rank : check["rank_timings"])
            QCOMPARE(rank["never_completed"].get<int>() > 0, rank["rank"].get<int>() != 2);
    }

    void pickleWithAGlobalIsRefused() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir), 0);
        // pickle.dumps of a call: GLOBAL 'builtins eval'.
        const std::string global =
            "\x80\x02"
            "cbuiltins\neval\n.";
        writeBytes(dir + "/nccl_trace_rank_1", global);
        QFile::remove(dir + "/nccl_trace_rank_1.json");
        const auto r = inspect({"check-job", sample("teaching_2x2.json"), dir});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("GLOBAL") && r.err.contains("nccl_trace_rank_1"),
                 r.err.constData());
    }

    void truncatedDumpIsRefused() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir), 0);
        QFile file(dir + "/nccl_trace_rank_3.json");
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(file.size() / 2));
        file.close();
        const auto r = inspect({"check-job", sample("teaching_2x2.json"), dir});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nccl_trace_rank_3.json"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // Dumps of another world than the plan's: said before the divergences
    // it causes, which would otherwise read as the job's faults.
    void anotherWorldIsSaid() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("fr");
        QCOMPARE(recordRun(sample("teaching_2x2.json"), dir), 0);
        const auto r = inspect({"check-job", sample("llama3_8b_hsdp_2x4.json"), dir});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("the record's world is 4 ranks, the plan's 8"), r.out.constData());
        QVERIFY(r.out.indexOf("the plan's 8") < r.out.indexOf("divergences"));
        const auto same = inspect({"check-job", sample("teaching_2x2.json"), dir, "--json"});
        QCOMPARE(parse(same.out)["record_world_size"].get<int>(), 4);
        QVERIFY(!inspect({"check-job", sample("teaching_2x2.json"), dir}).out.contains("world is"));
    }

    // A record with no collective to place (traces of a profiler that
    // writes no Seq) is not "exactly the plan": there is nothing to check.
    void aRecordWithNothingToCheckIsRefused() {
        QTemporaryDir tmp;
        TraceJson trace = kinetoTrace(0);
        for (auto& event : trace["traceEvents"])
            if (event["name"] == "record_param_comms") event["args"].erase("Seq");
        writeBytes(tmp.filePath("rank0.pt.trace.json"), trace.dump());
        const auto r = inspect({"check-job", sample("teaching_2x2.json"), tmp.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing to check") && r.err.contains("2 Kineto trace"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void missingScenarioIsRefused() {
        QTemporaryDir tmp;
        const auto r = inspect({"check-job", tmp.filePath("nope.json"), tmp.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nope.json"), r.err.constData());
        const auto usage = inspect({"check-job", sample("teaching_2x2.json")});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY2(usage.err.contains("check-job --help"), usage.err.constData());
    }

    void helpSaysHowToUseIt() {
        const auto r = inspect({"check-job", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("usage: hsdp-inspect check-job"));
        for (const char* kind : {"missing", "unexpected", "size", "dtype", "stuck", "order"})
            QVERIFY2(r.out.contains(kind), kind);
        const auto tool = inspect({"--help"});
        QVERIFY(tool.out.contains("check-job SCENARIO DUMP..."));
    }
};

QTEST_GUILESS_MAIN(TestCliCheckJob)
#include "tst_cli_check_job.moc"
