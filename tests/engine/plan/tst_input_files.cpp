// SPDX-License-Identifier: Apache-2.0
// Every reader of outside input (scenario, model config, saved run, trace)
// refuses a directory, a missing file, an unreadable file and an empty one
// in the same words, naming the file and what it should have been, as
// `plan` always did; `scenario --from-config` prints them too.
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

#include "cli_process.h"
#include "hf_config/model_config.h"
#include "hf_config/model_config_error.h"
#include "plan/planner.h"
#include "saved/saved_run.h"
#include "scenario/reader.h"
#include "scenario/scenario_error.h"

using namespace hsdp;
using namespace hsdp::testing;

namespace {

const QString kScenarioPath = sample("teaching_2x2.json");

// What a reader says about `path`: its exception's message, "" if it read.
using Reader = std::function<void(const std::string&)>;

QString refusal(const Reader& read, const QString& path) {
    try {
        read(path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString scenarioMessage(const std::string& path) {
    try {
        readScenarioFile(path);
    } catch (const ScenarioError& e) {
        return QString::fromStdString(e.file + ": " + e.problem);
    }
    return {};
}

}  // namespace

class TestInputFiles : public QObject {
    Q_OBJECT
private slots:
    void everyReaderSaysWhy_data();
    void everyReaderSaysWhy();
    void fromConfigSaysWhy();

private:
    QTemporaryDir dir_;
};

void TestInputFiles::everyReaderSaysWhy_data() {
    QTest::addColumn<QString>("reader");
    QTest::addColumn<QString>("noun");
    for (const char* r : {"scenario", "model config", "run result", "trace"})
        QTest::newRow(r) << QString::fromLatin1(r) << QString::fromLatin1(r);
}

void TestInputFiles::everyReaderSaysWhy() {
    QFETCH(QString, reader);
    QFETCH(QString, noun);
    const Scenario scenario = readScenarioFile(kScenarioPath.toStdString());
    const Plan plan = makePlan(scenario);
    // A trace needs a readable run result beside it: write one that belongs.
    const QString run = dir_.filePath(QStringLiteral("run.json"));
    Reader read;
    if (reader == QLatin1String("scenario"))
        read = [](const std::string& p) { readScenarioFile(p); };
    else if (reader == QLatin1String("model config"))
        read = [](const std::string& p) { readModelConfigFile(p); };
    else if (reader == QLatin1String("run result"))
        read = [&](const std::string& p) { openSavedRun(scenario, plan, p, ""); };
    else
        read = [&](const std::string& p) { openSavedRun(scenario, plan, run.toStdString(), p); };
    if (reader == QLatin1String("trace")) {
        auto made = runProgram(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-inspect"),
                               {"run", kScenarioPath, "--json"});
        QCOMPARE(made.exitCode, 0);
        QFile file(run);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(made.out);
    }
    const QString prefix = QStringLiteral(": cannot read the %1: ").arg(noun);
    QList<QPair<QString, QString>> cases = {{dir_.path(), QStringLiteral("it is a directory")},
                                            {dir_.filePath(QStringLiteral("missing.json")),
                                             QStringLiteral("No such file or directory")}};
    const QString empty = dir_.filePath(QStringLiteral("empty.json"));
    QFile(empty).open(QIODevice::WriteOnly);
    cases.append({empty, QStringLiteral("it is empty")});
    const QString locked = dir_.filePath(QStringLiteral("locked.json"));
    {
        QFile file(locked);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{}");
    }
    QFile::setPermissions(locked, QFileDevice::Permissions());
    if (access(locked.toLocal8Bit().constData(), R_OK) != 0)  // root reads it anyway
        cases.append({locked, QStringLiteral("Permission denied")});
    for (const auto& [path, reason] : cases) {
        const QString said = reader == QLatin1String("scenario")
                                 ? scenarioMessage(path.toStdString())
                                 : refusal(read, path);
        QVERIFY2(said.contains(path + prefix + reason), qPrintable(said));
    }
}

// The command prints the reader's words: "it is a directory", not a JSON
// error at line 1, column 1; a missing config says why.
void TestInputFiles::fromConfigSaysWhy() {
    for (const auto& [path, reason] : {std::pair{dir_.path(), QStringLiteral("it is a directory")},
                                       std::pair{dir_.filePath(QStringLiteral("config.json")),
                                                 QStringLiteral("No such file or directory")}}) {
        const CliOutcome r = inspect({"scenario", "--from-config", path, "--mesh", "dp_shard=2",
                                      "-o", dir_.filePath(QStringLiteral("s.json"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            QString::fromUtf8(r.err).contains(path + ": cannot read the model config: " + reason),
            r.err.constData());
    }
}

QTEST_GUILESS_MAIN(TestInputFiles)
#include "tst_input_files.moc"
