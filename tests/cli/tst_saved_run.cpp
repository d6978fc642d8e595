// SPDX-License-Identifier: Apache-2.0
// Saved runs read back: what `hsdp-inspect run --json --trace` writes opens
// as the RunResult the engine produced (verdicts, mismatches, every trace
// event), and a result or trace of another scenario or run is refused with
// a reason naming the culprit.
#include <QtTest>

#include <algorithm>

#include <cmath>
#include <fstream>

#include "cli_process.h"
#include "export/chrome_trace.h"
#include "export/run_json.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "saved/saved_run.h"
#include "scenario/reader.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

QString hazards() {
    return QStringLiteral(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json");
}

struct Live {
    Scenario scenario;
    Plan plan;
    RunResult run;
};

Live runLive(const QString& path, RunMode mode, std::optional<FaultSpec> fault = {}) {
    Live live{readScenarioFile(path.toStdString()), {}, {}};
    live.plan = makePlan(live.scenario);
    RunOptions options;
    options.mode = mode;
    options.fault = fault;
    live.run = runPlan(live.scenario, live.plan, options);
    return live;
}

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << text;
    return path;
}

std::string writeRun(const QTemporaryDir& dir, const RunResult& run) {
    return writeText(dir, "run.json", runToJson(run).dump(1));
}

std::string writeTrace(const QTemporaryDir& dir, const Live& live) {
    ChromeTraceOptions options;
    options.worldSize = live.scenario.worldSize;
    for (const auto& p : live.scenario.params) options.paramNames.push_back(p.name);
    return writeText(dir, "trace.json", traceToChromeJson(live.run.trace, options).dump());
}

bool sameFloat(float a, float b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

void compareMismatches(const std::vector<Mismatch>& got, const std::vector<Mismatch>& want) {
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].rank, want[i].rank);
        QCOMPARE(got[i].what, want[i].what);
        QVERIFY(got[i].rows == want[i].rows);
        QVERIFY(got[i].heldRows == want[i].heldRows);
        QCOMPARE(got[i].firstBadFlat, want[i].firstBadFlat);
        QVERIFY(sameFloat(got[i].expected, want[i].expected));
        QVERIFY(sameFloat(got[i].got, want[i].got));
        QCOMPARE(got[i].text, want[i].text);
    }
}

void compareEvents(const Trace& got, const Trace& want) {
    QCOMPARE(got.events.size(), want.events.size());
    for (size_t i = 0; i < got.events.size(); ++i) {
        const TraceEvent& a = got.events[i];
        const TraceEvent& b = want.events[i];
        QCOMPARE(a.seq, b.seq);
        QCOMPARE(a.rank, b.rank);
        QCOMPARE(a.op, b.op);
        QCOMPARE(a.groupRanks, b.groupRanks);
        QCOMPARE(a.bytes, b.bytes);
        QCOMPARE(a.startUs, b.startUs);
        QVERIFY(std::abs(a.endUs - b.endUs) < 1e-6);
        QCOMPARE(a.label.phase, b.label.phase);
        QCOMPARE(a.label.scheduleIndex, b.label.scheduleIndex);
        QCOMPARE(a.label.group, b.label.group);
        QCOMPARE(a.label.batch, b.label.batch);
        QCOMPARE(a.label.tpTransition, b.label.tpTransition);
        QCOMPARE(a.label.mesh, b.label.mesh);
        QCOMPARE(a.label.meshDim, b.label.meshDim);
        QCOMPARE(a.label.params, b.label.params);
        QCOMPARE(a.label.segments.size(), b.label.segments.size());
        for (size_t s = 0; s < a.label.segments.size(); ++s) {
            QCOMPARE(a.label.segments[s].param, b.label.segments[s].param);
            QCOMPARE(a.label.segments[s].offset, b.label.segments[s].offset);
            QCOMPARE(a.label.segments[s].length, b.label.segments[s].length);
            QCOMPARE(a.label.segments[s].padding, b.label.segments[s].padding);
        }
    }
}

// Everything the views show, field by field ("seconds" is written rounded).
void compareRuns(const RunResult& got, const RunResult& want) {
    QCOMPARE(got.mode, want.mode);
    QCOMPARE(got.worldSize, want.worldSize);
    QCOMPARE(got.verified, want.verified);
    QCOMPARE(got.shrink.has_value(), want.shrink.has_value());
    if (got.shrink) QCOMPARE(got.shrink->factor, want.shrink->factor);
    QCOMPARE(got.params.size(), want.params.size());
    for (size_t i = 0; i < got.params.size(); ++i) {
        QCOMPARE(got.params[i].index, want.params[i].index);
        QCOMPARE(got.params[i].name, want.params[i].name);
        QCOMPARE(got.params[i].gather, want.params[i].gather);
        QCOMPARE(got.params[i].step, want.params[i].step);
        QCOMPARE(got.params[i].replicas, want.params[i].replicas);
        QCOMPARE(got.params[i].detail, want.params[i].detail);
        QCOMPARE(got.params[i].shapeRun, want.params[i].shapeRun);
        compareMismatches(got.params[i].mismatches, want.params[i].mismatches);
    }
    QCOMPARE(got.tpTransitions.size(), want.tpTransitions.size());
    for (size_t i = 0; i < got.tpTransitions.size(); ++i) {
        QCOMPARE(got.tpTransitions[i].name, want.tpTransitions[i].name);
        QCOMPARE(got.tpTransitions[i].path, want.tpTransitions[i].path);
        QCOMPARE(got.tpTransitions[i].result, want.tpTransitions[i].result);
        compareMismatches(got.tpTransitions[i].mismatches, want.tpTransitions[i].mismatches);
    }
    QCOMPARE(got.notRun.size(), want.notRun.size());
    QCOMPARE(got.planErrors.size(), want.planErrors.size());
    QCOMPARE(got.collectives, want.collectives);
    QCOMPARE(got.rankEvents, want.rankEvents);
    QCOMPARE(got.bytes, want.bytes);
    QCOMPARE(got.error, want.error);
    QCOMPARE(got.errorRank, want.errorRank);
    QCOMPARE(got.cancelled, want.cancelled);
    compareEvents(got.trace, want.trace);
}

// What openSavedRun says, or "" when it opened.
QString refusal(const Live& live, const std::string& runPath, const std::string& tracePath) {
    try {
        openSavedRun(live.scenario, live.plan, runPath, tracePath);
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

}  // namespace

class TestSavedRun : public QObject {
    Q_OBJECT
private slots:
    void opensAsTheLiveRun_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("faultRank");
        QTest::newRow("teaching corrected") << sample("teaching_2x2.json") << 0 << -1;
        QTest::newRow("hazards reference (mismatches)") << hazards() << 1 << -1;
        QTest::newRow("failed run (fault on rank 2)") << sample("teaching_2x2.json") << 0 << 2;
        QTest::newRow("diagnostics tour (plan errors)")
            << sample("diagnostics_tour.json") << 0 << -1;
    }
    void opensAsTheLiveRun() {
        QFETCH(QString, scenario);
        QFETCH(int, mode);
        QFETCH(int, faultRank);
        std::optional<FaultSpec> fault;
        if (faultRank >= 0) fault = FaultSpec{faultRank, 3};
        Live live = runLive(scenario, RunMode(mode), fault);
        QVERIFY(!live.run.trace.events.empty());
        if (fault) QVERIFY(!live.run.error.empty());
        QTemporaryDir dir;
        RunResult opened =
            openSavedRun(live.scenario, live.plan, writeRun(dir, live.run), writeTrace(dir, live));
        compareRuns(opened, live.run);
    }
    void resultWithoutTraceOpens() {
        Live live = runLive(hazards(), RunMode::Reference);
        QTemporaryDir dir;
        RunResult opened = openSavedRun(live.scenario, live.plan, writeRun(dir, live.run), "");
        QVERIFY(opened.trace.events.empty());
        QCOMPARE(opened.params.size(), live.run.params.size());
        QCOMPARE(opened.verified, false);
    }
    // The files hsdp-inspect writes (not just our writer's output in-process).
    void filesOfTheCliOpen() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("cli-trace.json");
        auto r = inspect({"run", hazards(), "--mode", "reference", "--json", "--trace", trace});
        QCOMPARE(r.exitCode, 1);  // reference mode on the hazards fails verification
        const std::string runPath = writeText(dir, "cli-run.json", r.out.toStdString());
        Live live = runLive(hazards(), RunMode::Reference);
        RunResult opened = openSavedRun(live.scenario, live.plan, runPath, trace.toStdString());
        QCOMPARE(opened.collectives, live.run.collectives);
        QCOMPARE(opened.bytes, live.run.bytes);
        QCOMPARE(opened.trace.events.size(), live.run.trace.events.size());
        for (size_t i = 0; i < opened.params.size(); ++i) {
            QCOMPARE(opened.params[i].gather, live.run.params[i].gather);
            compareMismatches(opened.params[i].mismatches, live.run.params[i].mismatches);
        }
    }
    void traceOfAnotherScenarioIsRefused() {
        Live teaching = runLive(sample("teaching_2x2.json"), RunMode::Corrected);
        Live hazard = runLive(hazards(), RunMode::Corrected);
        QTemporaryDir dir;
        const std::string run = writeRun(dir, hazard.run);
        QTemporaryDir other;
        const std::string trace = writeTrace(other, teaching);
        const QString why = refusal(hazard, run, trace);
        QVERIFY2(why.startsWith(QString::fromStdString(trace) + ": not the trace of this run"),
                 qPrintable(why));
        QVERIFY2(why.contains("parameter"), qPrintable(why));  // the names differ first
    }
    void traceOfAnotherRunIsRefused() {
        Live live = runLive(sample("teaching_2x2.json"), RunMode::Corrected);
        QTemporaryDir dir;
        const std::string run = writeRun(dir, live.run);
        auto& events = live.run.trace.events;  // one collective event fewer
        const auto last = std::find_if(events.rbegin(), events.rend(),
                                       [](const TraceEvent& e) { return !isCompute(e); });
        events.erase(std::next(last).base());
        const std::string trace = writeTrace(dir, live);
        const QString why = refusal(live, run, trace);
        QVERIFY2(why.contains("the trace is of another run"), qPrintable(why));
        QVERIFY2(why.contains(QString::number(live.run.rankEvents) + " moving"), qPrintable(why));
    }
    void runOfAnotherScenarioIsRefused() {
        Live teaching = runLive(sample("teaching_2x2.json"), RunMode::Corrected);
        Live hazard = runLive(hazards(), RunMode::Corrected);
        QTemporaryDir dir;
        const std::string run = writeRun(dir, teaching.run);
        const QString why = refusal(hazard, run, "");
        QVERIFY2(why.startsWith(QString::fromStdString(run) + ": not a run of scenario"),
                 qPrintable(why));
    }
    void renamedParameterIsNamed() {
        Live live = runLive(sample("teaching_2x2.json"), RunMode::Corrected);
        QTemporaryDir dir;
        live.run.params[0].name = "renamed.weight";
        const QString why = refusal(live, writeRun(dir, live.run), "");
        QVERIFY2(why.contains("'renamed.weight'") &&
                     why.contains(QString::fromStdString(live.scenario.params[0].name)),
                 qPrintable(why));
    }
    void malformedFilesNameTheirPath() {
        Live live = runLive(sample("teaching_2x2.json"), RunMode::Corrected);
        QTemporaryDir dir;
        auto json = runToJson(live.run);
        json["params"][0]["gather"] = "sideways";
        const std::string bad = writeText(dir, "bad.json", json.dump());
        QString why = refusal(live, bad, "");
        QVERIFY2(why.contains("/params/0/gather") && why.contains("sideways"), qPrintable(why));
        const std::string planOutput = writeText(dir, "plan.json", "{\"format\": \"hsdp-plan/1\"}");
        why = refusal(live, planOutput, "");
        QVERIFY2(why.contains("hsdp-run/1"), qPrintable(why));
        why = refusal(live, dir.filePath("missing.json").toStdString(), "");
        QVERIFY2(why.contains("missing.json"), qPrintable(why));
        const std::string run = writeRun(dir, live.run);
        why = refusal(live, run, writeText(dir, "cut.json", "{\"traceEvents\": [{\"ph\": \"X\""));
        QVERIFY2(why.contains("cut.json") && why.contains("line 1"), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestSavedRun)
#include "tst_saved_run.moc"
