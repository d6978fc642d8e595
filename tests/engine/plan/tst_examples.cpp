// SPDX-License-Identifier: Apache-2.0
#include <QtTest>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "export/plan_json.h"
#include "export/plan_text.h"
#include "json_subset.h"
#include "plan/planner.h"
#include "planner_fixtures.h"
#include "scenario/reader.h"

using namespace hsdp;
using Json = nlohmann::json;
using hsdp::testing::firstMismatch;

namespace {

const std::string kExamples = std::string(HSDP_SOURCE_DIR) + "/tests/data/examples/";

Json readJson(const std::string& path) {
    std::ifstream in(path);
    return Json::parse(in);
}

// The optional upstream copy of the examples for the drift check. The
// environment variable HSDP_SHARED_DIR overrides the configured folder (the
// lonely_clone test points it at nothing to prove the suite needs no such folder).
std::string sharedExamplesDir() {
    QByteArray fromEnv = qgetenv("HSDP_SHARED_DIR");
    std::string dir = fromEnv.isEmpty() ? std::string(HSDP_SHARED_DIR) : fromEnv.toStdString();
    return dir + "/spec/examples/";
}

}  // namespace

class TestExamples : public QObject {
    Q_OBJECT
private slots:
    void agreesWithExpectedPlan_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("teaching_2x2") << "teaching_2x2";
        QTest::newRow("fsdp_tp_hazards") << "fsdp_tp_hazards";
        QTest::newRow("batches_and_replica_split") << "batches_and_replica_split";
    }

    void agreesWithExpectedPlan() {
        QFETCH(QString, name);
        std::string base = kExamples + name.toStdString();
        Scenario scenario = readScenarioFile(base + ".scenario.json");
        Plan plan = makePlan(scenario);
        Json actual = Json::parse(planToJson(plan, scenario).dump());
        Json expected = readJson(base + ".expected-plan.json");
        QVERIFY(expected.size() >= 10);  // the pinned keys are really there
        std::string mismatch = firstMismatch(expected, actual, "");
        QVERIFY2(mismatch.empty(), mismatch.c_str());
        QCOMPARE(actual.at("scenario").get<std::string>(), scenario.name);
        QCOMPARE(actual.at("params").size(), scenario.params.size());
        QCOMPARE(plan.hasErrors(), false);
    }

    // When the upstream examples folder is beside the clone (CI), the test data
    // copy must not have drifted from it. A clone on its own skips this check.
    void testDataMatchesSharedExamples_data() { agreesWithExpectedPlan_data(); }
    void testDataMatchesSharedExamples() {
        QFETCH(QString, name);
        std::string shared = sharedExamplesDir() + name.toStdString();
        if (!QFileInfo::exists(QString::fromStdString(shared + ".expected-plan.json")))
            QSKIP(qPrintable("no upstream examples at " + QString::fromStdString(shared) +
                             ".*: drift check skipped (tests/data/examples is used)"));
        std::string local = kExamples + name.toStdString();
        QCOMPARE(readJson(local + ".expected-plan.json"), readJson(shared + ".expected-plan.json"));
        QCOMPARE(readJson(local + ".scenario.json"), readJson(shared + ".scenario.json"));
    }

    void comparatorCatchesDifferences() {
        Json expected = readJson(kExamples + "teaching_2x2.expected-plan.json");
        Scenario scenario = readScenarioFile(kExamples + "teaching_2x2.scenario.json");
        Json actual = Json::parse(planToJson(makePlan(scenario), scenario).dump());
        actual["groups"][0]["batches"][0]["owner"]["1"] = Json::array({0});
        QVERIFY(!firstMismatch(expected, actual, "").empty());
    }

    void textOutputMentionsDecisions() {
        Scenario scenario = readScenarioFile(kExamples + "fsdp_tp_hazards.scenario.json");
        std::string text = planToText(makePlan(scenario), scenario);
        for (const char* needle : {"strided-shard-chunk", "nested-shard-order", "uneven-shard",
                                   "all_reduce_shard", "rank 3", "Group 2", "fallback"})
            QVERIFY2(text.find(needle) != std::string::npos, needle);
        // Diagnostics come first.
        QVERIFY(text.find("Diagnostics") < text.find("Group 0"));
    }

    void textIsCompactForHugeWorlds() {
        Scenario scenario = testing::largeScenario(400, 1024, 8);
        std::string text = planToText(makePlan(scenario), scenario);
        // 400 params on 8,192 ranks: the text lists samples and counts, not
        // every rank (about 200 lines, the loads headline included).
        auto lines = std::count(text.begin(), text.end(), '\n');
        QVERIFY2(lines < 210, std::to_string(lines).c_str());
        QVERIFY(text.find("more ranks") != std::string::npos);
        QVERIFY(text.find("distinct ownership sets") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestExamples)
#include "tst_examples.moc"
