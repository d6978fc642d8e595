// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <cmath>

#include "export/run_json.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "scenario/reader.h"

using namespace hsdp;

class TestRunJson : public QObject {
    Q_OBJECT
private slots:
    void keysOfRun_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("corrected") << int(RunMode::Corrected);
        QTest::newRow("reference") << int(RunMode::Reference);
    }
    void keysOfRun() {
        QFETCH(int, mode);
        Scenario s =
            readScenarioFile(HSDP_SOURCE_DIR "/tests/data/examples/fsdp_tp_hazards.scenario.json");
        RunOptions options;
        options.mode = RunMode(mode);
        RunResult r = runPlan(s, makePlan(s), options);
        auto j = runToJson(r);
        std::vector<std::string> keys;
        for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
        const std::vector<std::string> pinned{"format", "mode",   "world_size",     "verified",
                                              "shrink", "params", "tp_transitions", "collectives",
                                              "bytes",  "seconds"};
        QCOMPARE(std::vector<std::string>(keys.begin(), keys.begin() + long(pinned.size())),
                 pinned);
        QCOMPARE(j["format"].get<std::string>(), std::string("hsdp-run/1"));
        QCOMPARE(j["mode"].get<std::string>(),
                 std::string(mode == int(RunMode::Corrected) ? "corrected" : "reference"));
        QCOMPARE(j["world_size"].get<int>(), 4);
        QCOMPARE(j["verified"].get<bool>(), mode == int(RunMode::Corrected));
        QVERIFY(j["shrink"].is_null());
        QCOMPARE(j["params"].size(), size_t(5));
        for (const auto& p : j["params"]) {
            for (const char* k : {"index", "name", "gather", "step", "replicas"})
                QVERIFY(p.contains(k));
            const auto g = p["gather"].get<std::string>();
            QVERIFY(g == "exact" || g == "mismatch" || g == "not-gathered" || g == "error" ||
                    g == "not-reached");
        }
        QCOMPARE(j["params"][4]["gather"].get<std::string>(), std::string("not-gathered"));
        for (const auto& t : j["tp_transitions"]) {
            const auto path = t["path"].get<std::string>();
            QVERIFY(path == "lowered" || path == "fallback" || path == "identity");
            QCOMPARE(t["result"].get<std::string>(), std::string("exact"));
        }
        QCOMPARE(j["collectives"].get<int64_t>(), r.collectives);
        QVERIFY(j["bytes"].get<int64_t>() > 0);
        QVERIFY(j["seconds"].get<double>() > 0);
        // Connecting is part of the run, never all of it.
        QVERIFY(j["connect_seconds"].get<double>() > 0);
        QVERIFY(j["connect_seconds"].get<double>() < j["seconds"].get<double>());
        if (mode == int(RunMode::Reference)) {
            QVERIFY(j["params"][1].contains("detail"));
            QVERIFY(j["params"][1]["mismatches"].size() > 0);
            // The poisoned padding the uneven param read has no JSON number: null.
            QVERIFY(j.dump().find("NaN") == std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestRunJson)
#include "tst_run_json.moc"
