// SPDX-License-Identifier: Apache-2.0
// The documentation cannot rot: every ```json block of README.md and docs/*.md
// is checked against the engine. Complete scenarios read and plan without error
// and equal a file of docs/examples/; cluster files (hsdp-cluster/1) read; scenario fragments (a
// param, a transition, a repeat block, a mesh or options object) read once wrapped in a minimal
// scenario; plan excerpts agree with the real plan of the docs example they
// name. Every docs/examples file is shown by some page, and every relative link
// of the pages points at a file that exists.
#include <QtTest>

#include <QDir>
#include <QRegularExpression>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cluster/reader.h"
#include "export/plan_json.h"
#include "json_subset.h"
#include "plan/planner.h"
#include "scenario/reader.h"

using namespace hsdp;
using Json = nlohmann::json;
using hsdp::testing::firstMismatch;

namespace {

const QString kSource = QStringLiteral(HSDP_SOURCE_DIR);

struct CodeBlock {
    QString page;  // relative to the source dir
    int line = 0;  // 1-based line of the opening fence
    std::string text;
    QString where() const { return page + ":" + QString::number(line); }
};

std::string readText(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream out;
    out << in.rdbuf();
    return out.str();
}

QStringList pages() {
    QStringList out{"README.md"};
    for (const QString& f : QDir(kSource + "/docs").entryList({"*.md"}, QDir::Files, QDir::Name))
        out << "docs/" + f;
    return out;
}

std::vector<CodeBlock> jsonBlocks(const QString& page) {
    std::vector<CodeBlock> out;
    std::istringstream in(readText(kSource + "/" + page));
    std::string line;
    int number = 0;
    CodeBlock* open = nullptr;
    while (std::getline(in, line)) {
        ++number;
        if (open) {
            if (line.rfind("```", 0) == 0)
                open = nullptr;
            else
                open->text += line + "\n";
        } else if (line == "```json") {
            out.push_back({page, number, {}});
            open = &out.back();
        }
    }
    return out;
}

// A page's prose: its fenced code blocks (indented ones in list items too) and
// inline code spans dropped, since a lambda such as `[](const E& e)` is code,
// not a link.
QString proseOf(const QString& page) {
    std::istringstream in(readText(kSource + "/" + page));
    std::string line, out;
    bool inFence = false;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
            inFence = !inFence;
            continue;
        }
        if (!inFence) out += line + "\n";
    }
    static const QRegularExpression inlineCode(QStringLiteral("`[^`\n]*`"));
    return QString::fromStdString(out).remove(inlineCode);
}

std::vector<CodeBlock> allJsonBlocks() {
    std::vector<CodeBlock> out;
    for (const QString& page : pages())
        for (auto& block : jsonBlocks(page)) out.push_back(std::move(block));
    return out;
}

QStringList exampleFiles() {
    return QDir(kSource + "/docs/examples").entryList({"*.json"}, QDir::Files, QDir::Name);
}

Json exampleJson(const QString& file) {
    return Json::parse(readText(kSource + "/docs/examples/" + file));
}

// Placements per mesh dim of the first entry found in `j` (src for transitions).
size_t placementCount(const Json& j) {
    if (j.is_object()) {
        for (const char* key : {"placements", "src"})
            if (j.contains(key) && j[key].is_array()) return j[key].size();
        for (const auto& [key, value] : j.items())
            if (size_t n = placementCount(value)) return n;
    } else if (j.is_array()) {
        for (const auto& value : j)
            if (size_t n = placementCount(value)) return n;
    }
    return 0;
}

// A minimal scenario holding `fragment`, on a mesh of the fragment's mesh name
// with one dim of size 2 per placement.
Json wrapFragment(const Json& fragment) {
    Json top = {{"format", "hsdp-scenario/1"}, {"name", "docs fragment"}};
    const std::set<std::string> topKeys{"description", "mesh",   "meshes",        "world_size",
                                        "options",     "params", "tp_transitions"};
    bool isTopLevelPart = !fragment.empty();
    for (const auto& [key, value] : fragment.items()) isTopLevelPart &= topKeys.count(key) > 0;
    if (isTopLevelPart) top.update(fragment);
    Json mesh = {{"shape", Json::array()}};
    for (size_t i = 0; i < std::max<size_t>(1, placementCount(fragment)); ++i)
        mesh["shape"].push_back(2);
    std::string meshName = fragment.value("mesh", Json()).is_string() ? fragment["mesh"] : "main";
    if (!top.contains("mesh") && !top.contains("meshes")) top["meshes"] = {{meshName, mesh}};
    if (isTopLevelPart) return top;
    bool isTransition = fragment.contains("src") || fragment.contains("transitions");
    top[isTransition ? "tp_transitions" : "params"] = Json::array({fragment});
    return top;
}

std::string planErrors(const Plan& plan) {
    std::string out;
    for (const auto& d : plan.diagnostics)
        if (d.severity == Severity::Error) out += d.code + ": " + d.message + "; ";
    return out;
}

void checkCompleteScenario(const CodeBlock& block, const Json& j) {
    Scenario s = readScenario(block.text);
    std::string errors = planErrors(makePlan(s));
    QVERIFY2(errors.empty(),
             qPrintable(block.where() + " plans with errors: " + QString::fromStdString(errors)));
    bool isFile = false;
    for (const QString& file : exampleFiles()) isFile |= exampleJson(file) == j;
    QVERIFY2(isFile, qPrintable(block.where() + ": a complete scenario must be a copy of a "
                                                "docs/examples/ file (so users can run it)"));
}

void checkPlanExcerpt(const CodeBlock& block, const Json& j) {
    for (const QString& file : exampleFiles()) {
        Json scenario = exampleJson(file);
        if (scenario.value("name", "") != j.value("scenario", "")) continue;
        Scenario s = readScenario(scenario.dump());
        Json actual = Json::parse(planToJson(makePlan(s), s).dump());
        std::string mismatch = firstMismatch(j, actual, "");
        QVERIFY2(mismatch.empty(), qPrintable(block.where() + " disagrees with the plan of " +
                                              file + " at " + QString::fromStdString(mismatch)));
        return;
    }
    QFAIL(qPrintable(block.where() + ": its \"scenario\" names no docs/examples scenario"));
}

}  // namespace

class TestDocsExamples : public QObject {
    Q_OBJECT
private slots:
    void everyJsonBlockIsValid_data() {
        QTest::addColumn<int>("index");
        const auto blocks = allJsonBlocks();
        QVERIFY(blocks.size() >= 10);  // the pages really are scanned
        for (size_t i = 0; i < blocks.size(); ++i)
            QTest::newRow(qPrintable(blocks[i].where())) << int(i);
    }

    void everyJsonBlockIsValid() {
        QFETCH(int, index);
        const CodeBlock block = allJsonBlocks()[size_t(index)];
        Json j;
        try {
            j = Json::parse(block.text);
        } catch (const std::exception& e) {
            QFAIL(qPrintable(block.where() + " is not JSON: " + e.what()));
        }
        const std::string format = j.is_object() ? j.value("format", "") : "";
        try {
            if (format == "hsdp-scenario/1")
                checkCompleteScenario(block, j);
            else if (format == "hsdp-plan/1")
                checkPlanExcerpt(block, j);
            else if (format == "hsdp-cluster/1")
                readCluster(block.text);
            else if (format.empty() && j.is_object() && !j.contains("traceEvents"))
                makePlan(readScenario(wrapFragment(j).dump()));
        } catch (const ScenarioError& e) {
            QFAIL(qPrintable(block.where() + " does not read: " + QString::fromStdString(e.path) +
                             " " + QString::fromStdString(e.problem)));
        } catch (const ClusterError& e) {
            QFAIL(qPrintable(block.where() + " does not read: " + QString::fromStdString(e.path) +
                             " " + QString::fromStdString(e.problem)));
        }
    }

    void everyExampleFilePlansAndIsShown() {
        const auto blocks = allJsonBlocks();
        QVERIFY(exampleFiles().size() >= 3);
        for (const QString& file : exampleFiles()) {
            Scenario s = readScenarioFile((kSource + "/docs/examples/" + file).toStdString());
            QVERIFY2(planErrors(makePlan(s)).empty(), qPrintable(file));
            bool shownOrLinked = false;
            for (const QString& page : pages())
                shownOrLinked |= QString::fromStdString(readText(kSource + "/" + page))
                                     .contains("examples/" + file);
            QVERIFY2(shownOrLinked, qPrintable(file + " is named by no page"));
        }
    }

    void relativeLinksExist() {
        const QRegularExpression link(QStringLiteral(R"(\]\(([^)#:]+)(#[^)]*)?\))"));
        int checked = 0;
        for (const QString& page : pages()) {
            const QString dir = QFileInfo(kSource + "/" + page).absolutePath();
            for (const auto& m : link.globalMatch(proseOf(page))) {
                ++checked;
                const QString target = QDir::cleanPath(dir + "/" + m.captured(1));
                QVERIFY2(QFileInfo::exists(target),
                         qPrintable(page + " links to missing " + m.captured(1)));
                QVERIFY2(target.startsWith(QDir::cleanPath(kSource)),
                         qPrintable(page + " links outside the repository: " + m.captured(1)));
            }
        }
        QVERIFY(checked >= 10);
    }

    // The checker itself: a wrong value in a plan excerpt is caught.
    void excerptComparisonCatchesDifferences() {
        Json plan = {{"world_size", 4}, {"groups", {{{"id", 0}}}}};
        QVERIFY(firstMismatch({{"world_size", 4}}, plan, "").empty());
        QVERIFY(!firstMismatch({{"world_size", 8}}, plan, "").empty());
        QVERIFY(!firstMismatch({{"groups", Json::array()}}, plan, "").empty());
        Json fragment = {
            {"name", "w"}, {"shape", {4, 4}}, {"dtype", "bf16"}, {"placements", {"R", "Shard(0)"}}};
        QCOMPARE(wrapFragment(fragment)["meshes"]["main"]["shape"].size(), size_t(2));
        fragment["placements"] = {"R", "Shard(0"};
        QVERIFY_THROWS_EXCEPTION(ScenarioError, readScenario(wrapFragment(fragment).dump()));
    }
};

QTEST_APPLESS_MAIN(TestDocsExamples)
#include "tst_docs_examples.moc"
