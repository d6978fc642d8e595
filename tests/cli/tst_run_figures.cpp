// SPDX-License-Identifier: Apache-2.0
// A run's figures mean one thing each (issue 18, points 6 and 8): a
// collective is counted once across its group and a per-rank event once per
// member; a shrunk run's byte figures say so and give the real-size figure,
// checked here against a run of the real shapes; the CLI's run text names
// what it measures (the report command's timing line: tst_report, which
// needs the report writer and so the views).
#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <map>
#include <set>
#include <tuple>

#include "cli_process.h"
#include "export/run_figures.h"
#include "export/run_json.h"
#include "plan/planner.h"
#include "run/real_size.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "scenario/reader.h"
#include "types/figures.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

const char* const kEven = HSDP_SOURCE_DIR "/tests/data/figures/even_2x4.json";

struct Ran {
    Scenario scenario;
    Plan plan;
    RunResult run;
};

// The even scenario run on its real shapes (maxBytes < 0) or shrunk by 4: the
// budget is what the shapes at factor 4 need, so 4 is the smallest factor
// that fits (3 needs more).
// `broadcastCap` > 0 replaces the scenario's broadcast_max_bytes.
Ran runEven(bool shrunk, int64_t broadcastCap = 0) {
    Ran r{readScenarioFile(kEven), {}, {}};
    if (broadcastCap > 0) r.scenario.options.broadcastMaxBytes = broadcastCap;
    r.plan = makePlan(r.scenario);
    RunOptions options;
    options.flopBudget = 1e18;
    if (shrunk) {
        const ShrinkDecision at4 = shrinkAtFactor(r.scenario, 4);
        options.maxBytes = estimateRunBytes(r.scenario, r.plan, at4.paramShapes, at4.tpShapes);
    } else {
        options.maxBytes = int64_t(1) << 40;
    }
    r.run = runPlan(r.scenario, r.plan, options);
    return r;
}

// A collective by what it does, not by its id (ids follow thread timing).
using CollectiveKey = std::tuple<std::string, int, int, int, std::vector<int>, std::vector<int>>;
CollectiveKey keyOf(const TraceEvent& e) {
    return {e.label.phase,   e.label.group, e.label.batch,
            e.label.meshDim, e.groupRanks,  e.label.params};
}

// Per collective (all its members' events): the bytes they sent.
std::map<CollectiveKey, int64_t> bytesByCollective(const Trace& trace) {
    std::map<int64_t, CollectiveKey> keys;
    std::map<int64_t, int64_t> bytes;
    for (const TraceEvent& e : trace.events) {
        keys.emplace(e.seq, keyOf(e));
        bytes[e.seq] += e.bytes;
    }
    std::map<CollectiveKey, int64_t> out;
    for (const auto& [seq, key] : keys) out[key] += bytes[seq];
    return out;
}

}  // namespace

class TestRunFigures : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        real_ = runEven(false);
        shrunk_ = runEven(true);
        QVERIFY2(real_.run.verified, real_.run.error.c_str());
        QVERIFY2(shrunk_.run.verified, shrunk_.run.error.c_str());
        QVERIFY(!real_.run.shrink);
        QVERIFY(shrunk_.run.shrink);
        QCOMPARE(shrunk_.run.shrink->factor, int64_t(4));
    }

    // docs/glossary.md "Collective": distinct ids, each once; per-rank events
    // one per member, and the JSON carries both under their own names.
    void aCollectiveIsCountedOnceAcrossItsGroup() {
        const RunResult& run = real_.run;
        std::set<int64_t> ids;
        int64_t events = 0;  // the compute spans between collectives are no collective's
        for (const TraceEvent& e : run.trace.events)
            if (!isCompute(e)) {
                ids.insert(e.seq);
                ++events;
            }
        QCOMPARE(run.collectives, static_cast<int64_t>(ids.size()));
        QCOMPARE(run.rankEvents, events);
        QVERIFY(run.collectives < run.rankEvents);  // every group here has > 1 member
        const auto json = runToJson(run);
        QCOMPARE(json.at("collectives").get<int64_t>(), run.collectives);
        QCOMPARE(json.at("rank_events").get<int64_t>(), run.rankEvents);
    }

    // The shrunk run's real-size figures equal what the real shapes moved.
    void realSizeBytesAreWhatTheRealShapesMove() {
        QVERIFY(shrunk_.run.bytes < real_.run.bytes);
        QCOMPARE(shrunk_.run.shrink->realBytes, real_.run.bytes);
        const RealScale scale = realScale(shrunk_.scenario, shrunk_.run.shrink);
        const auto real = bytesByCollective(real_.run.trace);
        const auto shrunk = bytesByCollective(shrunk_.run.trace);
        QCOMPARE(shrunk.size(), real.size());
        std::map<int64_t, const TraceEvent*> firstOf;
        for (const TraceEvent& e : shrunk_.run.trace.events) firstOf.emplace(e.seq, &e);
        for (const auto& [seq, e] : firstOf) {
            const CollectiveKey key = keyOf(*e);
            QVERIFY(real.count(key));
            const auto got = scale.realBytes(e->label, double(shrunk.at(key)));
            QVERIFY(got);
            QCOMPARE(std::llround(*got), real.at(key));
        }
        QCOMPARE(realWireBytes(real_.run.trace, realScale(real_.scenario, std::nullopt)),
                 real_.run.bytes);  // an unshrunk run is its own real size
    }

    // The run line: counts named, wall time named, the shrink explained.
    void runTotalsNameWhatTheyCount() {
        const std::string real = runTotalsText(real_.run);
        QVERIFY2(real.find(groupedCount(real_.run.collectives) + " collectives (" +
                           groupedCount(real_.run.rankEvents) + " per-rank events)") !=
                     std::string::npos,
                 real.c_str());
        QVERIFY2(real.find(wallTimeText(real_.run.seconds)) != std::string::npos, real.c_str());
        QVERIFY2(real.find("shrunk") == std::string::npos, real.c_str());
        QVERIFY(runShrinkText(real_.run).empty());
        const std::string shrunk = runTotalsText(shrunk_.run);
        const std::string sent = "sent " + humanBytes(double(shrunk_.run.bytes)) +
                                 " in the shrunk run (≈ " + humanBytes(double(real_.run.bytes)) +
                                 " at real size)";
        QVERIFY2(shrunk.find(sent) != std::string::npos, shrunk.c_str());
        const std::string why = runShrinkText(shrunk_.run);
        for (const char* part : {"shrunk run: buffers ", "> --max-bytes", "every dim divided by 4",
                                 "of the shrunk shapes"})
            QVERIFY2(why.find(part) != std::string::npos, why.c_str());
    }

    // Broadcasts cut at 4 KiB: the real shapes' 32 KiB shards take several
    // chunks each, the shrunk ones fewer. The run line gives the real shapes'
    // count, and it is what a run of the real shapes issues.
    void realSizeCountIsWhatTheRealShapesIssue() {
        const int64_t cap = 4 * 1024;
        const Ran real = runEven(false, cap);
        Ran shrunk = runEven(true, cap);
        QVERIFY2(real.run.verified && shrunk.run.verified, shrunk.run.error.c_str());
        QVERIFY(shrunk.run.collectives < real.run.collectives);
        noteRealSizeCollectives(shrunk.scenario, shrunk.plan, shrunk.run);
        QCOMPARE(shrunk.run.shrink->realCollectives, real.run.collectives);
        const std::string text = runTotalsText(shrunk.run);
        const std::string said = "; " + groupedCount(real.run.collectives) + " at real size";
        QVERIFY2(text.find(said) != std::string::npos, text.c_str());
        QVERIFY2(runTotalsText(shrunk_.run).find("at real size,") == std::string::npos,
                 "no count at real size when the run did not note one");
        // A run that stopped made fewer than either count: the plan's whole
        // count beside its own is left out.
        RunResult stopped = shrunk.run;
        stopped.error = "injected fault";
        QVERIFY2(runTotalsText(stopped).find("whose broadcasts") == std::string::npos,
                 runTotalsText(stopped).c_str());
        stopped.error.clear();
        stopped.cancelled = true;
        QVERIFY(runTotalsText(stopped).find("whose broadcasts") == std::string::npos);
    }

    // `hsdp-inspect run` prints the same words, and --json the same counts.
    void cliRunTextSaysShrunkAndRealSize() {
        const QString budget = QString::number(estimateBytesAt4());
        const CliOutcome text = inspect({"run", kEven, "--max-bytes", budget});
        QCOMPARE(text.exitCode, 0);
        const QString out = QString::fromUtf8(text.out);
        const CliOutcome json = inspect({"run", kEven, "--max-bytes", budget, "--json"});
        const QJsonObject run = QJsonDocument::fromJson(json.out).object();
        const qint64 collectives = run.value("collectives").toInteger();
        const qint64 events = run.value("rank_events").toInteger();
        QCOMPARE(collectives, shrunk_.run.collectives);
        QCOMPARE(events, shrunk_.run.rankEvents);
        QCOMPARE(run.value("shrink").toObject().value("real_bytes").toInteger(), real_.run.bytes);
        for (const QString& part :
             {QStringLiteral("shrunk run: buffers "), QStringLiteral("> --max-bytes"),
              QString::fromStdString(groupedCount(collectives)) + " collectives (" +
                  QString::fromStdString(groupedCount(events)) + " per-rank events)",
              QStringLiteral(" in the shrunk run (≈ ") +
                  QString::fromStdString(humanBytes(double(real_.run.bytes))) +
                  QStringLiteral(" at real size)"),
              QStringLiteral(" s wall (")})
            QVERIFY2(out.contains(part), qPrintable(part + QStringLiteral("\n") + out));
    }

private:
    int64_t estimateBytesAt4() const {
        const ShrinkDecision at4 = shrinkAtFactor(shrunk_.scenario, 4);
        return estimateRunBytes(shrunk_.scenario, shrunk_.plan, at4.paramShapes, at4.tpShapes);
    }

    Ran real_, shrunk_;
};

QTEST_GUILESS_MAIN(TestRunFigures)
#include "tst_run_figures.moc"
