// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <QTemporaryDir>
#include <chrono>
#include <mutex>
#include <set>

#include "export/npy.h"
#include "export/npy_dump.h"
#include "verify/truth.h"

#include "plan/planner.h"
#include "run/runner.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

Scenario example(const QString& name) {
    return readScenarioFile(
        QString(HSDP_SOURCE_DIR "/tests/data/examples/%1.scenario.json").arg(name).toStdString());
}

RunResult runScenario(const Scenario& s, RunMode mode) {
    RunOptions options;
    options.mode = mode;
    options.timeout = std::chrono::milliseconds(30000);
    return runPlan(s, makePlan(s), options);
}

QString describe(const RunResult& r) {
    QStringList out;
    for (const auto& p : r.params)
        out << QString("%1 %2: gather %3 step %4 replicas %5 %6")
                   .arg(p.index)
                   .arg(QString::fromStdString(p.name))
                   .arg(QString::fromStdString(std::string(gatherVerdictName(p.gather))))
                   .arg(QString::fromStdString(std::string(checkVerdictName(p.step))))
                   .arg(QString::fromStdString(std::string(replicaVerdictName(p.replicas))))
                   .arg(QString::fromStdString(p.detail));
    for (const auto& t : r.tpTransitions)
        out << QString("tp %1 %2 [%3]: %4 %5")
                   .arg(t.index)
                   .arg(QString::fromStdString(t.name))
                   .arg(QString::fromStdString(t.path))
                   .arg(QString::fromStdString(std::string(checkVerdictName(t.result))))
                   .arg(QString::fromStdString(t.detail));
    if (!r.error.empty()) out << "error: " + QString::fromStdString(r.error);
    return out.join("\n");
}

}  // namespace

class TestRunScenarios : public QObject {
    Q_OBJECT
private slots:
    void correctedVerifies_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("teaching_2x2") << "teaching_2x2";
        QTest::newRow("fsdp_tp_hazards") << "fsdp_tp_hazards";
        QTest::newRow("batches_and_replica_split") << "batches_and_replica_split";
    }
    void correctedVerifies() {
        QFETCH(QString, name);
        const Scenario s = example(name);
        const auto started = std::chrono::steady_clock::now();
        RunResult r = runScenario(s, RunMode::Corrected);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        qInfo("%s: corrected run %.2f s (runPlan says %.2f s), %lld collectives, %lld bytes",
              qPrintable(name), secs, r.seconds, (long long)r.collectives, (long long)r.bytes);
        QVERIFY2(r.verified, qPrintable(describe(r)));
        QVERIFY(r.collectives > 0);
        QCOMPARE(int(r.params.size()), int(s.params.size()));
        // One per member of each collective, beside the compute spans.
        const auto collectiveEvents =
            std::count_if(r.trace.events.begin(), r.trace.events.end(),
                          [](const TraceEvent& e) { return !isCompute(e); });
        QCOMPARE(size_t(collectiveEvents), size_t(r.rankEvents));
        std::set<int64_t> ids;
        for (const TraceEvent& e : r.trace.events)
            if (!isCompute(e)) ids.insert(e.seq);
        QCOMPARE(ids.size(), size_t(r.collectives));  // each collective once
    }

    void referenceShowsTheHazards() {
        const Scenario s = example("fsdp_tp_hazards");
        RunResult r = runScenario(s, RunMode::Reference);
        qInfo("%s", qPrintable(describe(r)));
        QVERIFY(!r.verified);
        QVERIFY(r.error.empty());
        QList<int> failed;
        for (const auto& p : r.params) {
            const bool ok =
                p.step == CheckVerdict::Exact &&
                (p.gather == GatherVerdict::Exact || p.gather == GatherVerdict::NotGathered);
            if (!ok) {
                failed << p.index;
                QVERIFY2(!p.detail.empty(), qPrintable(QString::number(p.index)));
            }
        }
        QCOMPARE(failed, (QList<int>{0, 1, 3}));
        for (const auto& t : r.tpTransitions) QCOMPARE(t.result, CheckVerdict::Exact);
        // The evidence names ranks and rows: the strided param's wrong slices,
        // the nested param's reordered rows, the uneven param's padding.
        QVERIFY(QString::fromStdString(r.params[0].detail)
                    .contains("applied update rows 2..3 to rows 4..5"));
        QVERIFY(QString::fromStdString(r.params[1].detail)
                    .contains("expected rows 2..3 got rows 4..5"));
        QVERIFY(QString::fromStdString(r.params[3].detail).contains("from padding"));
        QCOMPARE(r.params[1].gather, GatherVerdict::Mismatch);
        QCOMPARE(r.params[0].gather,
                 GatherVerdict::Exact);  // strided rows gather right; the slice is wrong
        bool structured = false;
        for (const auto& m : r.params[1].mismatches)
            structured =
                structured || (m.what == "gather" && !m.rows.empty() && m.firstBadFlat >= 0);
        QVERIFY(structured);
        // The rows in data: "expected rows 2..3 got rows 4..5" is the range
        // [2, 4) holding the true rows [4, 6).
        bool held = false;
        for (const auto& m : r.params[1].mismatches) {
            QCOMPARE(m.heldRows.size(), m.rows.size());
            for (size_t i = 0; i < m.rows.size(); ++i)
                held = held || (m.rows[i] == IndexRange{2, 4} && m.heldRows[i] == IndexRange{4, 6});
        }
        QVERIFY(held);
        // The uneven param's rank 0 gathered row 5 from padding: it holds no row.
        const Mismatch& padding = r.params[3].mismatches.front();
        QCOMPARE(padding.rank, 0);
        QVERIFY((padding.rows == std::vector<IndexRange>{IndexRange{5, 6}}));
        QVERIFY(padding.heldRows == std::vector<IndexRange>{IndexRange{}});
    }

    void handBuilt_data() {
        QTest::addColumn<QString>("json");
        QTest::newRow("dtypes-caps-batches")
            << R"json({"format": "hsdp-scenario/1", "name": "mixed",
            "mesh": {"shape": [2, 3], "dim_names": ["dp_replicate", "dp_shard"]},
            "options": {"broadcast_max_bytes": 64, "max_batch_numel": 40, "alignment_bytes": 16, "lr": 0.5},
            "params": [
              {"name": "a.f16", "shape": [7, 5], "dtype": "f16", "placements": ["R", "S(0)"]},
              {"name": "b.f64", "shape": [5, 7], "dtype": "f64", "placements": ["R", "S(1)"]},
              {"name": "c.bf16.strided", "shape": [12, 4], "dtype": "bf16", "placements": ["R", "SS(0,2)"]},
              {"name": "d.3d", "shape": [3, 4, 5], "dtype": "f32", "placements": ["R", "S(0)"]},
              {"name": "e.norm", "shape": [10], "dtype": "f16", "placements": ["R", "R"]},
              {"name": "f.frozen", "shape": [6, 6], "dtype": "f32", "placements": ["R", "S(0)"], "requires_grad": false},
              {"name": "g.plain", "shape": [3, 3], "dtype": "bf16"}]})json";
        // options.newton_schulz as the job runs it: bf16 products, 3 steps
        // with their own coefficients; the truth runs the same, so the run
        // still verifies bit for bit (gathered, exchanged and local params).
        for (const char* strategy : {"all-gather", "all-to-all"})
            QTest::newRow(qPrintable(QStringLiteral("newton-schulz-bf16-3-steps-") + strategy))
                << QString(R"json({"format": "hsdp-scenario/1", "name": "ns",
            "mesh": {"shape": [2, 2], "dim_names": ["dp_replicate", "dp_shard"]},
            "options": {"gather_strategy": "%1", "newton_schulz": {"steps": 3, "dtype": "bf16",
              "coefficients": [[3.4445, -4.775, 2.0315], [3.0, -3.2, 1.2], [1.875, -1.25, 0.375]]}},
            "params": [
              {"name": "w", "shape": [12, 8], "dtype": "bf16", "placements": ["R", "S(0)"]},
              {"name": "v", "shape": [6, 10], "dtype": "f32", "placements": ["R", "S(1)"]},
              {"name": "stack", "shape": [4, 6, 5], "dtype": "bf16", "placements": ["R", "S(0)"]},
              {"name": "plain", "shape": [5, 7], "dtype": "f32"}]})json")
                       .arg(QLatin1String(strategy));
        QTest::newRow("replica-count") << R"json({"format": "hsdp-scenario/1", "name": "replicas",
            "mesh": {"shape": [4, 2], "dim_names": ["dp_replicate", "dp_shard"]},
            "options": {"hsdp_replica_count": 2},
            "params": [
              {"name": "w", "shape": [9, 4], "dtype": "bf16", "placements": ["R", "S(0)"]},
              {"name": "v", "shape": [4, 9], "dtype": "f32", "placements": ["R", "S(1)"]},
              {"name": "x", "shape": [6, 6], "dtype": "f32", "placements": ["R", "S(0)"]},
              {"name": "n", "shape": [8], "dtype": "f32", "placements": ["R", "R"]}]})json";
        QTest::newRow("two-meshes-permuted")
            << R"json({"format": "hsdp-scenario/1", "name": "meshes",
            "meshes": {"a": {"shape": [2, 2], "dim_names": ["dp_shard", "tp"], "ranks": [3, 1, 2, 0]},
                       "b": {"shape": [4], "dim_names": ["dp_shard"]}},
            "params": [
              {"name": "p", "shape": [6, 5], "dtype": "f32", "mesh": "a", "placements": ["S(0)", "S(1)"]},
              {"name": "q", "shape": [7, 3], "dtype": "bf16", "mesh": "b", "placements": ["S(0)"]}],
            "tp_transitions": [
              {"name": "t", "mesh": "a", "shape": [4, 6], "dtype": "bf16", "src": ["R", "S(1)"], "dst": ["R", "R"]},
              {"name": "u", "mesh": "a", "shape": [5, 6], "dtype": "f32", "src": ["S(0)", "P(sum)"], "dst": ["R", "S(1)"]}]})json";
    }
    void handBuilt() {
        QFETCH(QString, json);
        const Scenario s = readScenario(json.toStdString());
        RunResult r = runScenario(s, RunMode::Corrected);
        QVERIFY2(r.verified, qPrintable(describe(r)));
        int gathered = 0;
        for (const auto& p : r.params) gathered += p.gather == GatherVerdict::Exact;
        QVERIFY(gathered > 0);
    }

    // Found by tst_run_fuzz: an even S(1) on a mesh listed as ranks [4, 0, 6, 2]
    // fails in reference mode (the process group gathers in ascending rank
    // order); the plan now says so (shard-rank-order) and only that param fails.
    void referenceFailsOnShardRankOrder() {
        const Scenario s =
            readScenario(R"json({"format": "hsdp-scenario/1", "name": "fuzz72", "world_size": 7,
            "meshes": {"a": {"shape": [4], "dim_names": ["tp"], "ranks": [4, 0, 6, 2]},
                       "b": {"shape": [4], "dim_names": ["dp_shard"], "ranks": [0, 2, 4, 6]}},
            "options": {"alignment_bytes": 16},
            "params": [{"name": "p0", "shape": [6, 4], "dtype": "f16", "mesh": "a", "placements": ["S(1)"]},
                       {"name": "p1", "shape": [6, 4], "dtype": "f16", "mesh": "b", "placements": ["S(1)"]}]})json");
        const Plan plan = makePlan(s);
        std::vector<int> flagged;
        for (const auto& d : plan.diagnostics)
            if (d.code == "shard-rank-order") flagged = d.params;
        QCOMPARE(flagged, std::vector<int>{0});
        QVERIFY2(runScenario(s, RunMode::Corrected).verified,
                 "corrected mode gathers in mesh order");
        const RunResult r = runScenario(s, RunMode::Reference);
        QVERIFY(r.error.empty());
        QCOMPARE(r.params[0].gather, GatherVerdict::Mismatch);
        QVERIFY2(
            r.params[1].gather == GatherVerdict::Exact && r.params[1].step == CheckVerdict::Exact,
            qPrintable(describe(r)));
    }

    void referenceVerifiesEvenLayouts() {
        RunResult r = runScenario(example("teaching_2x2"), RunMode::Reference);
        QVERIFY2(r.verified, qPrintable(describe(r)));
    }

    void failedCollectiveIsAnErrorNotACrash() {
        const Scenario s = example("teaching_2x2");
        RunOptions options;
        options.timeout = std::chrono::milliseconds(10000);
        options.fault = FaultSpec{1, 3};
        RunResult r = runPlan(s, makePlan(s), options);
        QVERIFY(!r.verified);
        QVERIFY(!r.error.empty());
        QCOMPARE(r.errorRank, 1);
        // The params whose step the stopped run never checked say so: not-reached,
        // not "error" next to "never reported".
        int notReached = 0;
        for (const auto& p : r.params) {
            QVERIFY2(p.step != CheckVerdict::Error, p.detail.c_str());
            notReached += p.step == CheckVerdict::NotReached;
        }
        QVERIFY(notReached > 0);
    }

    void cancelStopsTheRun() {
        const Scenario s = example("fsdp_tp_hazards");
        std::atomic<bool> cancel{true};
        RunOptions options;
        options.cancel = &cancel;
        RunResult r = runPlan(s, makePlan(s), options);
        QVERIFY(r.cancelled);
        QVERIFY(!r.verified);
        QVERIFY(!r.error.empty());
    }

    void progressReachesOne() {
        const Scenario s = example("fsdp_tp_hazards");
        std::vector<double> seen;
        RunOptions options;
        options.progress = [&](double f, const std::string&) {
            seen.push_back(f);
        };  // rank 0's thread only
        RunResult r = runPlan(s, makePlan(s), options);
        QVERIFY(r.verified);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.back(), 1.0);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }

    // The runner takes each TP group's steps from the plan (it never re-plans):
    // a plan whose "colwise.in" groups run no steps leaves the S(1) shards in
    // place, so the transition fails and no TP collective runs for it.
    void runnerFollowsThePlansTpSteps() {
        const Scenario s = example("fsdp_tp_hazards");
        Plan plan = makePlan(s);
        TpPlan& colwise = plan.tpTransitions.at(2);
        QCOMPARE(colwise.name, std::string("colwise.in"));
        for (auto& group : colwise.groups) {
            QCOMPARE(group.runs, TpPath::Lowered);
            QVERIFY(!group.steps.empty());
            group.steps.clear();
        }
        RunOptions options;
        options.timeout = std::chrono::milliseconds(30000);
        RunResult r = runPlan(s, plan, options);
        QVERIFY(r.tpTransitions.at(2).result != CheckVerdict::Exact);
        QCOMPARE(r.tpTransitions.at(0).result, CheckVerdict::Exact);
        for (const auto& e : r.trace.events) QVERIFY(e.label.tpTransition != 2);
    }

    // The observer sees what each rank gathered and holds at the end.
    void observerSeesGatheredAndFinalTensors() {
        struct Recorder : RunObserver {
            std::mutex mutex;
            std::set<std::pair<int, std::string>> gathered, finals;
            void gatheredTensor(int rank, const ParamSpec& p, const Tensor&) override {
                std::lock_guard lock(mutex);
                gathered.insert({rank, p.name});
            }
            void finalTensor(int rank, const ParamSpec& p, const Tensor&) override {
                std::lock_guard lock(mutex);
                finals.insert({rank, p.name});
            }
        } recorder;
        const Scenario s = example("fsdp_tp_hazards");
        RunOptions options;
        options.observer = &recorder;
        QVERIFY(runPlan(s, makePlan(s), options).verified);
        for (int rank = 0; rank < 4; ++rank) {
            QVERIFY(recorder.gathered.count({rank, "uneven"}));
            QVERIFY(recorder.finals.count({rank, "experts"}));
            QVERIFY(!recorder.gathered.count({rank, "experts"}));
        }
    }

    void dumpWritesWhatRanksHold() {
        const Scenario s = example("fsdp_tp_hazards");
        QTemporaryDir dir;
        NpyDump dump(dir.path().toStdString());
        RunOptions options;
        options.observer = &dump;
        RunResult r = runPlan(s, makePlan(s), options);
        QVERIFY(r.verified);
        // Param 3 (uneven [5, 8]) is gathered by every rank of the shard group.
        for (int rank = 0; rank < 4; ++rank) {
            auto a = readNpyFloat32(
                dir.filePath(QString("rank%1/gathered/uneven.npy").arg(rank)).toStdString());
            QCOMPARE(a.shape, (std::vector<int64_t>{5, 8}));
            QCOMPARE(a.data, globalTensor(Truth::grad(3), {5, 8}).data);
            auto f = readNpyFloat32(
                dir.filePath(QString("rank%1/final/uneven.npy").arg(rank)).toStdString());
            QCOMPARE(f.shape.size(), size_t(2));
        }
        // "experts" is not gathered: only its final state is written.
        QVERIFY(!QFile::exists(dir.filePath("rank0/gathered/experts.npy")));
        QVERIFY(QFile::exists(dir.filePath("rank0/final/experts.npy")));
    }
};

QTEST_APPLESS_MAIN(TestRunScenarios)
#include "tst_run_scenarios.moc"
