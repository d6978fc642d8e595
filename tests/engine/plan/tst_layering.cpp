// SPDX-License-Identifier: Apache-2.0
// core/ reads one way: each module includes only the modules below it, so
// the plan never depends on how it runs and nothing in the engine depends on
// how results are exported (the front ends hook in through RunObserver).
//
// Each module's API is the headers at its top level; core/<module>/detail/
// holds what only that module uses. Nothing outside core/<module>/ includes
// a "<module>/detail/..." header, with one exception: a test that tests that
// internal piece itself, tests/tst_<name>.cpp including
// "<module>/detail/<name>.h". Every other test goes through the API.
#include <QtTest>

#include <QDirIterator>
#include <QRegularExpression>
#include <map>
#include <set>

namespace {

const QString kSource = HSDP_SOURCE_DIR "/";
const QString kCore = kSource + "core/";

// Module -> the modules it may include (besides itself).
const std::map<QString, std::set<QString>>& allowed() {
    static const std::map<QString, std::set<QString>> table = {
        {"types", {}},
        {"scenario", {"types"}},
        {"plan", {"types"}},
        {"runtime", {"types"}},
        {"tensor", {"types", "runtime"}},
        // A run result carries the plan's error diagnostics.
        {"verify", {"types", "plan", "runtime", "tensor"}},
        {"collectives", {"types", "runtime", "tensor", "verify"}},
        {"redistribute", {"types", "plan", "runtime", "tensor", "verify"}},
        // The optimizer step's rules: who owns, holds and computes what in a schedule entry.
        {"step", {"types", "plan"}},
        {"run",
         {"types", "plan", "runtime", "tensor", "verify", "collectives", "redistribute", "step"}},
        {"export",
         {"types", "scenario", "plan", "runtime", "tensor", "verify", "collectives", "redistribute",
          "step", "run", "cluster", "cost", "accuracy", "job_record", "job_check"}},
        // A run split over processes: runs shares with run's own parts, merges their reports.
        {"distributed",
         {"types", "plan", "runtime", "tensor", "verify", "collectives", "redistribute", "step",
          "run"}},
        // Saved runs: reads run --json and --trace back, checked against the scenario's groups.
        {"saved", {"types", "scenario", "plan", "runtime", "verify", "run"}},
        // Plan comparison: reads two plans, compares TP decisions through their JSON.
        {"plan_diff", {"types", "scenario", "plan", "export"}},
        // Scenarios from a Hugging Face config: builds a scenario document.
        {"hf_config", {"types", "scenario"}},
        // Scenarios from checkpoints: reads safetensors headers, places by hf_config's rules.
        {"checkpoint", {"types", "scenario", "hf_config"}},
        // Cluster files: hardware a plan is costed on; reads JSON with scenario's field readers.
        {"cluster", {"types", "scenario"}},
        // A job's record (Flight Recorder dumps, Kineto traces): scenario's field readers.
        {"job_record", {"types", "scenario"}},
        // A plan's predicted step on a cluster: the runner's schedule (read from
        // run/ and collectives/, never run), costed and simulated.
        {"cost",
         {"types", "plan", "runtime", "tensor", "collectives", "redistribute", "step", "run",
          "cluster"}},
        // A real run held against the cost model: schedule and trace matched,
        // the errors, the replay of its measured durations.
        {"accuracy", {"types", "plan", "runtime", "step", "cluster", "cost"}},
        // A job's record held against its plan (check-job): the schedule as the
        // record's collectives, recorded as job_record reads them; and what a
        // run's dumps record at the plan's real shapes (the trace paired).
        {"job_check",
         {"types", "scenario", "plan", "runtime", "step", "cost", "accuracy", "job_record"}},
        // Measuring this machine for a cluster file: runs Gloo collectives and
        // the engine's kernels, fits the cost model's parameters; or fits them
        // to a job's recorded collectives (job_record).
        {"calibrate",
         {"types", "scenario", "runtime", "tensor", "collectives", "cluster", "cost", "accuracy",
          "job_record"}},
    };
    return table;
}

}  // namespace

class TestLayering : public QObject {
    Q_OBJECT
private slots:
    void everyModuleIsKnown() {
        for (const QString& dir : QDir(kCore).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(allowed().count(dir), qPrintable("core/" + dir + " has no layer"));
    }

    void includesRunDownOnly() {
        static const QRegularExpression include("^\\s*#\\s*include\\s+\"([a-z_]+)/",
                                                QRegularExpression::MultilineOption);
        QStringList violations;
        int files = 0;
        QDirIterator it(kCore, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString module = QDir(kCore).relativeFilePath(path).section('/', 0, 0);
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            ++files;
            for (auto m = include.globalMatch(text); m.hasNext();) {
                const QString target = m.next().captured(1);
                if (target == module || !allowed().count(module)) continue;
                if (!allowed().at(module).count(target))
                    violations << QDir(kCore).relativeFilePath(path) + " includes " + target + "/";
            }
        }
        QVERIFY(files > 50);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join("\n")));
    }

    void detailStaysInsideItsModule() {
        static const QRegularExpression include(
            "^\\s*#\\s*include\\s+\"([a-z_]+)/detail/([a-z_0-9]+)\\.h\"",
            QRegularExpression::MultilineOption);
        QStringList violations;
        int files = 0, detailIncludes = 0;
        for (const QString top : {"core", "app", "widgets", "report", "tests", "bench"}) {
            QDirIterator it(kSource + top, {"*.h", "*.cpp"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = QDir(kSource).relativeFilePath(it.next());
                QFile file(kSource + path);
                QVERIFY(file.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(file.readAll());
                ++files;
                for (auto m = include.globalMatch(text); m.hasNext();) {
                    const auto match = m.next();
                    const QString module = match.captured(1), name = match.captured(2);
                    ++detailIncludes;
                    if (path.startsWith("core/" + module + "/")) continue;
                    if (path.startsWith("tests/") && path.endsWith("/tst_" + name + ".cpp"))
                        continue;  // its own unit test
                    violations << path + " includes " + module + "/detail/" + name + ".h";
                }
            }
        }
        QVERIFY(files > 200);
        QVERIFY(detailIncludes > 20);  // the pattern still matches how core includes
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join("\n")));
    }

    // A folder a reader takes in at a glance: at most 30 files.
    void noSourceFolderHoldsMoreThan30Files() {
        QStringList crowded;
        int folders = 0;
        for (const QString top :
             {"core", "app", "widgets", "report", "tests", "bench", "scripts"}) {
            QDirIterator it(kSource + top, QDir::Dirs | QDir::NoDotAndDotDot,
                            QDirIterator::Subdirectories);
            QStringList dirs{kSource + top};
            while (it.hasNext()) dirs << it.next();
            for (const QString& dir : dirs) {
                ++folders;
                const auto count = QDir(dir).entryList(QDir::Files).size();
                if (count > 30)
                    crowded << QDir(kSource).relativeFilePath(dir) + ": " + QString::number(count);
            }
        }
        QVERIFY(folders > 30);
        QVERIFY2(crowded.isEmpty(), qPrintable(crowded.join("\n")));
    }
};

QTEST_APPLESS_MAIN(TestLayering)
#include "tst_layering.moc"
