// SPDX-License-Identifier: Apache-2.0
// Every sample's plan against its golden file: a change in grouping, owners,
// batches, TP decisions or diagnostics shows up as a named JSON path.
// Regenerate after an intended change: HSDP_UPDATE_GOLDEN=1 tst_samples_golden
#include <QtTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "export/plan_json.h"
#include "plan/planner.h"
#include "samples.h"
#include "scenario/reader.h"

using namespace hsdp;
using hsdp::testing::sample;

namespace {

const std::string kSamples = sample().toStdString();
const std::string kGolden = HSDP_SOURCE_DIR "/tests/data/golden/";

// The first JSON pointer where `a` and `b` differ, or "" when equal.
std::string firstDifference(const nlohmann::json& a, const nlohmann::json& b) {
    auto patch = nlohmann::json::diff(a, b);
    return patch.empty() ? "" : patch[0].value("path", "/") + " (" + patch[0].value("op", "") + ")";
}

}  // namespace

class TestSamplesGolden : public QObject {
    Q_OBJECT
private slots:
    void planMatchesGolden_data() {
        QTest::addColumn<QString>("name");
        QDir dir(QString::fromStdString(kSamples));
        for (const QString& file : dir.entryList({"*.json"}, QDir::Files))
            QTest::newRow(qPrintable(file)) << file.chopped(5);
        QVERIFY(dir.entryList({"*.json"}, QDir::Files).size() >= 5);
    }
    void planMatchesGolden() {
        QFETCH(QString, name);
        Scenario scenario = readScenarioFile(kSamples + name.toStdString() + ".json");
        nlohmann::json plan = planToJson(makePlan(scenario), scenario);
        std::string goldenPath = kGolden + name.toStdString() + ".plan.json";
        if (qEnvironmentVariableIsSet("HSDP_UPDATE_GOLDEN")) {
            std::ofstream(goldenPath) << plan.dump(1) << "\n";
            QSKIP("golden file rewritten");
        }
        std::ifstream in(goldenPath);
        QVERIFY2(in.good(), ("missing golden file " + goldenPath).c_str());
        nlohmann::json golden = nlohmann::json::parse(in);
        std::string diff = firstDifference(golden, plan);
        QVERIFY2(diff.empty(), (name.toStdString() + " differs at " + diff).c_str());
    }
};

QTEST_APPLESS_MAIN(TestSamplesGolden)
#include "tst_samples_golden.moc"
