// SPDX-License-Identifier: Apache-2.0
// What the fuzzers of the readers of outside input found (tests/fuzz/,
// scripts/fuzz), guarded in every build: each input kept in
// tests/data/fuzz-regressions/<harness>/ is read through that harness's
// reader and gives the outcome listed here (a value, or an error naming its
// culprit); every kept input is listed. The quadratic blow-ups found are
// guarded by ratios: such an input reads about as fast as a plain document
// of the same size.
#include <QtTest>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <fstream>
#include <functional>
#include <map>

#include "cluster/reader.h"
#include "distributed/run_join.h"
#include "distributed/share_outcome.h"
#include "export/run_json.h"
#include "hf_config/model_config.h"
#include "hf_config/model_config_error.h"
#include "job_record/kineto_reader.h"
#include "plan/planner.h"
#include "saved/saved_run.h"
#include "scenario/json_text.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

const QString kKept = QStringLiteral(HSDP_SOURCE_DIR "/tests/data/fuzz-regressions");

std::string readBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const QString& path, std::string_view bytes) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string pathError(const std::string& path, const std::string& problem) {
    return "error at '" + path + "': " + problem;
}

// Each harness's reader, as the harness calls it: the value in a few words,
// or the error.
using Reader = std::function<std::string(const std::string& bytes)>;

std::string readScenarioOutcome(const std::string& bytes) {
    try {
        const Scenario s = readScenario(bytes);
        return "scenario: " + std::to_string(s.params.size()) + " params, " +
               std::to_string(s.tpTransitions.size()) + " TP transitions";
    } catch (const ScenarioError& e) {
        return pathError(e.path, e.problem);
    }
}

std::string readModelConfigOutcome(const std::string& bytes) {
    try {
        const ModelConfig c = readModelConfig(parseStrictJson(bytes), "config.json");
        return "config: " + c.architecture + ", " + std::to_string(c.numLayers) + " layers";
    } catch (const ScenarioError& e) {
        return pathError(e.path, e.problem);
    } catch (const ModelConfigError& e) {
        return e.what();
    }
}

std::string readClusterOutcome(const std::string& bytes) {
    try {
        const Cluster c = readCluster(bytes);
        return "cluster: " + std::to_string(c.nodes) + " x " + std::to_string(c.devicesPerNode);
    } catch (const ClusterError& e) {
        return pathError(e.path, e.problem);
    }
}

std::string readRunOutcome(const std::string& bytes) {
    try {
        // Read, written back as run --json writes it, and read again.
        const RunResult r = runFromJson(runToJson(runFromJson(parseStrictJson(bytes))));
        return "run: " + std::to_string(r.params.size()) + " params";
    } catch (const ScenarioError& e) {
        return pathError(e.path, e.problem);
    }
}

std::string readTraceOutcome(const std::string& bytes) {
    try {
        const SavedTrace t = traceFromChromeJson(parseStrictJson(bytes));
        return "trace: " + std::to_string(t.trace.events.size()) + " events";
    } catch (const ScenarioError& e) {
        return pathError(e.path, e.problem);
    }
}

// The run, a NUL byte, the trace; opened for samples/diagnostics_tour.json.
// The files' folder reads as DIR in the outcome.
std::string openSavedRunOutcome(const std::string& bytes) {
    static const Scenario scenario =
        readScenarioFile(HSDP_SOURCE_DIR "/samples/diagnostics_tour.json");
    static const Plan plan = makePlan(scenario);
    QTemporaryDir dir;
    const size_t nul = bytes.find('\0');
    const QString run = dir.filePath("run.json");
    writeBytes(run, std::string_view(bytes).substr(0, nul));
    QString trace;
    if (nul != std::string::npos) {
        trace = dir.filePath("trace.json");
        writeBytes(trace, std::string_view(bytes).substr(nul + 1));
    }
    try {
        const RunResult r = openSavedRun(scenario, plan, run.toStdString(), trace.toStdString());
        return "run: " + std::to_string(r.params.size()) + " params, " +
               std::to_string(r.trace.events.size()) + " events";
    } catch (const std::runtime_error& e) {
        return QString(e.what()).replace(dir.path(), "DIR").toStdString();
    }
}

std::string readRunCardOutcome(const std::string& bytes) {
    QTemporaryDir dir;
    writeBytes(dir.filePath("run.json"), bytes);
    writeBytes(dir.filePath("scenario.json"), "{}");
    try {
        const RunCard card = readRunCard(StoreFolder(dir.path().toStdString()));
        return "card: " + std::to_string(card.procs) + " processes";
    } catch (const std::runtime_error& e) {
        return QString(e.what()).replace(dir.path(), "DIR").toStdString();
    }
}

std::string readShareOutcome(const std::string& bytes) {
    try {
        const ShareOutcome share = decodeShare(bytes);
        return "share: process " + std::to_string(share.proc) + ", " +
               std::to_string(share.trace.events.size()) + " events";
    } catch (const std::runtime_error& e) {
        return e.what();
    }
}

std::string readKinetoOutcome(const std::string& bytes) {
    try {
        const KinetoTrace trace = readKinetoTrace(bytes);
        return "trace: " + std::to_string(trace.collectives.size()) + " collectives";
    } catch (const JobRecordError& e) {
        return pathError(e.where, e.problem);
    }
}

const std::map<QString, Reader>& readers() {
    static const std::map<QString, Reader> table = {
        {"scenario_reader", readScenarioOutcome}, {"model_config_reader", readModelConfigOutcome},
        {"cluster_reader", readClusterOutcome},   {"run_reader", readRunOutcome},
        {"trace_reader", readTraceOutcome},       {"saved_run", openSavedRunOutcome},
        {"run_card_reader", readRunCardOutcome},  {"share_reader", readShareOutcome},
        {"kineto_reader", readKinetoOutcome},
    };
    return table;
}

// Every kept input (harness/file) and what its outcome contains.
const std::map<QString, QString>& expectedOutcomes() {
    static const std::map<QString, QString> table = {
        // Hangs: the expansion walked a count of 2^63 - 1 (or 2^62 over ten
        // blocks of count 0) making nothing; now it costs the entries it makes.
        {"scenario_reader/empty_repeat_forever.json", "scenario: 0 params, 0 TP transitions"},
        {"scenario_reader/repeat_over_empty_blocks.json", "scenario: 0 params, 0 TP transitions"},
        // A long string with a 4-byte character across the 60th byte: the
        // message's excerpt cut it in half and nlohmann threw dumping it.
        {"kineto_reader/long_string_cut_inside_a_character.json",
         "error at '': expected a Kineto trace (an object with \"traceEvents\"), got "
         "\"Recortion iProcess Group RanksundtypeOOO\\\\ferze\\\\ntsch on ~\"..."},
        // A missing "format" was reported at /format, "got null": a key the file does not have.
        {"run_reader/missing_format.json",
         "error at '': missing required key \"format\" (\"hsdp-run/1\""},
        // A mismatch without held_rows was written back with an empty list
        // of them, which the reader refused: runToJson wrote what runFromJson refuses.
        {"run_reader/mismatch_without_held_rows.json", "run: 13 params"},
        // A span that ends before it starts read back, once written, as another event.
        {"trace_reader/negative_duration.json",
         "error at '/traceEvents/0/dur': expected a duration >= 0, got -5.0"},
        // Two events of 2^63 - 1 bytes each: the sum overflowed (undefined behaviour).
        {"saved_run/bytes_beyond_int64",
         "DIR/trace.json: not the trace of this run of scenario 'diagnostics tour: every "
         "diagnostic code in one plan': the trace is of another run: its events move more than "
         "2^63 bytes"},
    };
    return table;
}

QStringList keptFiles() {
    QStringList out;
    QDirIterator it(kKept, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) out << QDir(kKept).relativeFilePath(it.next());
    out.sort();
    return out;
}

// Seconds `read` takes at best of three (the least disturbed by other work).
double bestSeconds(const std::function<void()>& read) {
    double best = 1e9;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        read();
        best = std::min(best, double(timer.nsecsElapsed()) * 1e-9);
    }
    return best;
}

// How much longer reading `slow` takes than reading `plain`, a document of
// the same size without the structure that was quadratic: about 1 now, in
// the hundreds before the fix (at the sizes below).
double slowdown(const std::string& slow, const std::string& plain) {
    auto time = [](const std::string& text) {
        return bestSeconds([&] {
            try {
                readScenario(text);
            } catch (const ScenarioError&) {
            }
        });
    };
    return time(slow) / time(plain);
}

std::string scenarioWith(const std::string& members) {
    return R"({"format": "hsdp-scenario/1", "name": "t", "mesh": {"shape": [2]}, )" + members + "}";
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void everyKeptInputIsListed();
    void keptInputs_data();
    void keptInputs();
    void longNameOfBracesReadsInLinearTime();
    void objectOfManyKeysParsesInLinearTime();
    void meshOfManyDimsReadsInLinearTime();
};

void TestFuzzRegressions::everyKeptInputIsListed() {
    const QStringList kept = keptFiles();
    QVERIFY(!kept.isEmpty());
    for (const QString& file : kept) {
        QVERIFY2(expectedOutcomes().count(file), qPrintable(file + " has no expected outcome"));
        QVERIFY2(readers().count(file.section('/', 0, 0)),
                 qPrintable(file + " is in no harness's folder"));
    }
    for (const auto& [file, outcome] : expectedOutcomes())
        QVERIFY2(kept.contains(file), qPrintable(file + " is listed but not kept"));
}

void TestFuzzRegressions::keptInputs_data() {
    QTest::addColumn<QString>("file");
    for (const auto& [file, outcome] : expectedOutcomes()) QTest::newRow(qPrintable(file)) << file;
}

void TestFuzzRegressions::keptInputs() {
    QFETCH(QString, file);
    const Reader& read = readers().at(file.section('/', 0, 0));
    const QString outcome = QString::fromStdString(read(readBytes(kKept + "/" + file)));
    QVERIFY2(outcome.contains(expectedOutcomes().at(file)),
             qPrintable(file + " read as: " + outcome));
}

std::string paramNamed(const std::string& name) {
    std::string members = R"("params": [{"name": ")";
    members += name;
    members += R"(", "shape": [2], "dtype": "f32"}])";
    return scenarioWith(members);
}

// A name of many '{' before its '}': each '{' searched for the '}' (1 MB: 12 s).
void TestFuzzRegressions::longNameOfBracesReadsInLinearTime() {
    const size_t n = 1'000'000;
    std::string braces(n, '{');
    braces.push_back('}');
    const double s = slowdown(paramNamed(braces), paramNamed(std::string(n + 1, 'a')));
    QVERIFY2(s < 10,
             qPrintable(QString("a name of braces took %1x as long as one of letters").arg(s)));
}

// An object of many keys: each key searched the keys before it (1 MB: 26 s).
void TestFuzzRegressions::objectOfManyKeysParsesInLinearTime() {
    std::string keys, values;
    for (int i = 0; i < 160'000; ++i) {
        keys += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
        values += (i ? ",\"k" : "\"k") + std::to_string(i) + "\",0";
    }
    const double s =
        slowdown(scenarioWith("\"zz\": {" + keys + "}"), scenarioWith("\"zz\": [" + values + "]"));
    QVERIFY2(s < 10, qPrintable(QString("an object of keys took %1x as long as a list").arg(s)));
}

// A mesh of many dims of size 1: each dim name searched the names before it
// (1 MB: 15 s). The same dims under an unread key are the baseline.
void TestFuzzRegressions::meshOfManyDimsReadsInLinearTime() {
    std::string shape, names;
    for (int i = 0; i < 40'000; ++i) {
        shape += i ? ",1" : "1";
        names += (i ? ",\"d" : "\"d") + std::to_string(i) + "\"";
    }
    auto scenario = [&](const std::string& key) {
        return R"({"format": "hsdp-scenario/1", "name": "t", ")" + key + R"(": {"shape": [)" +
               shape + "], \"dim_names\": [" + names + "]}}";
    };
    const double s = slowdown(scenario("mesh"), scenario("zz"));
    QVERIFY2(s < 10, qPrintable(QString("a mesh of dims took %1x as long as unread dims").arg(s)));
}

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
