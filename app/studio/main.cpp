// SPDX-License-Identifier: Apache-2.0
// hsdp-studio: the studio window, or with --screenshot its views as PNGs or SVGs
// (no display needed). A thin main: everything lives in widgets/.
#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QStandardPaths>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "cluster/reader.h"
#include "derived/job/job_session.h"
#include "derived/run/run_status_text.h"
#include "hsdp_version.h"
#include "window/main_window.h"
#include "window/screenshots.h"

namespace {

// Without a display, screenshots, --help and --version still work: pick Qt's
// offscreen platform for them.
void preferOffscreenWithoutDisplay(int argc, char** argv) {
    bool headless = false;
    for (int i = 1; i < argc; ++i)
        for (const char* option : {"--screenshot", "--help", "-h", "--version", "-v"})
            headless |= QByteArray(argv[i]) == option;
    if (headless && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// The sample an installed studio opens when given no scenario: the one the
// package puts beside it (<prefix>/share/hsdp-studio/samples); none from a
// build folder.
QString installedDefaultSample() {
    const QString path = QCoreApplication::applicationDirPath() +
                         QStringLiteral("/../share/hsdp-studio/samples/llama3_8b_hsdp_2x4.json");
    return QFileInfo::exists(path) ? QFileInfo(path).canonicalFilePath() : QString();
}

// Waits for the first plan (or the reader's error) of the window's session.
bool waitForPlan(hsdp::MainWindow& window, QString* error) {
    QEventLoop loop;
    QObject::connect(&window, &hsdp::MainWindow::planShown, &loop, [&] { loop.quit(); });
    QObject::connect(window.session(), &hsdp::Session::readFailed, &loop,
                     [&](const QString& message) {
                         *error = message;
                         loop.quit();
                     });
    loop.exec();
    return error->isEmpty();
}

// Waits for the prediction of the plan on screen, when one is being made.
void waitForPrediction(hsdp::MainWindow& window) {
    if (!window.session()->isPredicting()) return;
    QEventLoop loop;
    QObject::connect(window.session(), &hsdp::Session::predictionReady, &loop,
                     [&] { loop.quit(); });
    loop.exec();
}

// What to show as the window's run: a run made now, or a saved one.
struct RunChoice {
    std::optional<hsdp::RunRequest> request;
    QString savedRun;  // hsdp-inspect run --json output
    QString savedTrace;
    QStringList job;  // a job record's dumps or folders (--job), checked against the plan
};

// Opens the job record of --job and waits for its check; false with the
// reader's message when it does not read.
bool openJobAndWait(hsdp::MainWindow& window, const QStringList& paths, QString* error) {
    QEventLoop loop;
    QObject::connect(&window, &hsdp::MainWindow::jobShown, &loop, [&] { loop.quit(); });
    QObject::connect(window.jobSession(), &hsdp::JobSession::openFailed, &loop,
                     [&](const QString& reason) {
                         *error = reason;
                         loop.quit();
                     });
    if (!window.openJobRecord(paths)) return true;
    loop.exec();
    return error->isEmpty();
}

// Runs the window's plan through its RunSession (or opens the saved run)
// and waits for the result; false with the reason when a saved run is refused.
bool runAndWait(hsdp::MainWindow& window, const RunChoice& choice, QString* error) {
    QEventLoop loop;
    QObject::connect(&window, &hsdp::MainWindow::runReady, &loop, [&] { loop.quit(); });
    QObject::connect(window.runSession(), &hsdp::RunSession::openFailed, &loop,
                     [&](const QString& reason) {
                         *error = reason;
                         loop.quit();
                     });
    const bool started = choice.savedRun.isEmpty()
                             ? window.startRun(*choice.request)
                             : window.openRun(choice.savedRun, choice.savedTrace);
    if (!started) return true;
    loop.exec();
    if (!error->isEmpty()) return false;
    std::printf("run: %s\n", qPrintable(window.runStatusText()));
    return true;
}

// "h100-dgx, a100-dgx, h200-hgx, loopback".
QString presetList() {
    QStringList names;
    for (const std::string& name : hsdp::clusterPresetNames())
        names << QString::fromStdString(name);
    return names.join(QStringLiteral(", "));
}

int screenshots(hsdp::MainWindow& window, const QString& dir, const QString& scenario,
                const RunChoice& run, hsdp::ScreenshotFormats formats) {
    window.setRemembersFiles(false);
    window.openScenario(scenario);
    QString error;
    if (!waitForPlan(window, &error)) {
        std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
        return 2;
    }
    waitForPrediction(window);  // its views are in the screenshots
    std::printf("cluster: %s (--cluster chooses another)\n", qPrintable(window.clusterChoice()));
    if ((run.request || !run.savedRun.isEmpty()) && !runAndWait(window, run, &error)) {
        std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
        return 2;
    }
    if (!run.job.isEmpty() && !openJobAndWait(window, run.job, &error)) {
        std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
        return 2;
    }
    QStringList written = hsdp::writeScreenshots(window, dir, &error, formats);
    for (const QString& path : written) std::printf("wrote %s\n", qPrintable(path));
    if (!error.isEmpty()) std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
    return error.isEmpty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    preferOffscreenWithoutDisplay(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("hsdp"));
    QApplication::setApplicationName(QStringLiteral("hsdp-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("HSDP Studio"));
    QApplication::setApplicationVersion(QString::fromUtf8(hsdp::version()));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/hsdp-studio.svg")));
    QApplication::setDesktopFileName(QStringLiteral("hsdp-studio"));

    QCommandLineParser parser;
    const QString autosave = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                             QStringLiteral("/autosave");
    parser.setApplicationDescription(
        QStringLiteral("HSDP Studio: see, check and debug HSDP sharding plans.\n"
                       "Unsaved what-if edits are set aside in %1 and offered back when a "
                       "studio was killed or crashed.")
            .arg(autosave));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Write each view of SCENARIO as a PNG (or SVG: --screenshot-format) into "
                       "DIR and exit."),
        QStringLiteral("DIR"));
    parser.addOption(screenshot);
    QCommandLineOption clusterOption(
        QStringLiteral("cluster"),
        QStringLiteral("The cluster every plan is predicted on: a preset (%1), an "
                       "hsdp-cluster/1 file, or none. Default: the Cluster menu's last choice "
                       "(h100-dgx at first); with --screenshot, h100-dgx, so pictures do not "
                       "depend on a past session.")
            .arg(presetList()),
        QStringLiteral("NAME|FILE"));
    parser.addOption(clusterOption);
    QCommandLineOption screenshotFormat(
        QStringLiteral("screenshot-format"),
        QStringLiteral("What --screenshot writes of each view: png (pixels, the default), svg "
                       "(drawing commands: text stays text) or png,svg (both, e.g. mesh.png "
                       "and mesh.svg)."),
        QStringLiteral("FORMATS"), QStringLiteral("png"));
    parser.addOption(screenshotFormat);
    QCommandLineOption run(
        QStringLiteral("run"),
        QStringLiteral("Run the plan for real once it is ready (with --screenshot: before the "
                       "screenshots, adding verification.png)."));
    parser.addOption(run);
    QCommandLineOption mode(QStringLiteral("mode"),
                            QStringLiteral("The mode of --run: corrected (default) or reference."),
                            QStringLiteral("MODE"), QStringLiteral("corrected"));
    parser.addOption(mode);
    QCommandLineOption openRun(
        QStringLiteral("open-run"),
        QStringLiteral("Show a saved run of SCENARIO (the output of hsdp-inspect run --json) "
                       "instead of running."),
        QStringLiteral("RUN_JSON"));
    parser.addOption(openRun);
    QCommandLineOption trace(QStringLiteral("trace"),
                             QStringLiteral("The saved run's trace (hsdp-inspect run --trace)."),
                             QStringLiteral("TRACE_JSON"));
    parser.addOption(trace);
    QCommandLineOption job(
        QStringLiteral("job"),
        QStringLiteral("A job's record to hold against the plan once it is ready, as File > Open "
                       "Job Record does: a folder of its Flight Recorder dumps (or a dump; "
                       "repeat for more). With --screenshot: adds job.png."),
        QStringLiteral("DUMPS"));
    parser.addOption(job);
    parser.addPositionalArgument(
        QStringLiteral("scenario"),
        QStringLiteral("An hsdp-scenario/1 JSON file to open (installed: the Llama-3-8B "
                       "sample when none is given)."));
    parser.process(app);
    QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        if (const QString sample = installedDefaultSample(); !sample.isEmpty()) {
            std::printf("hsdp-studio: no scenario given, opening the installed sample %s\n",
                        qPrintable(sample));
            files << sample;
        }

    RunChoice choice;
    std::optional<hsdp::RunRequest>& request = choice.request;
    choice.savedRun = parser.value(openRun);
    choice.savedTrace = parser.value(trace);
    choice.job = parser.values(job);
    if (parser.isSet(trace) && !parser.isSet(openRun)) {
        std::fprintf(stderr, "hsdp-studio: --trace is the trace of --open-run; add --open-run\n");
        return 2;
    }
    if (parser.isSet(openRun) && parser.isSet(run)) {
        std::fprintf(stderr,
                     "hsdp-studio: --open-run shows a saved run, --run makes one: "
                     "choose one\n");
        return 2;
    }
    if (parser.isSet(run) || parser.isSet(mode)) {
        const QString name = parser.value(mode);
        if (name != QLatin1String("corrected") && name != QLatin1String("reference")) {
            std::fprintf(stderr,
                         "hsdp-studio: --mode expects 'corrected' or 'reference', got '%s'\n",
                         qPrintable(name));
            return 2;
        }
        if (!parser.isSet(run)) {
            std::fprintf(stderr, "hsdp-studio: --mode is the mode of --run; add --run\n");
            return 2;
        }
        request.emplace();
        request->mode = name == QLatin1String("reference") ? hsdp::RunMode::Reference
                                                           : hsdp::RunMode::Corrected;
    }

    hsdp::ScreenshotFormats formats;
    if (parser.isSet(screenshotFormat)) {
        QString error;
        if (!hsdp::parseScreenshotFormats(parser.value(screenshotFormat), &formats, &error)) {
            std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
            return 2;
        }
        if (!parser.isSet(screenshot)) {
            std::fprintf(stderr,
                         "hsdp-studio: --screenshot-format is the format of --screenshot; add "
                         "--screenshot DIR\n");
            return 2;
        }
    }

    hsdp::MainWindow window;
    // The command line's cluster, not kept for the next start; screenshots
    // are on the default one unless told, whatever a past session chose.
    if (parser.isSet(clusterOption) || parser.isSet(screenshot)) {
        const QString cluster = parser.isSet(clusterOption) ? parser.value(clusterOption)
                                                            : hsdp::MainWindow::defaultCluster();
        if (!window.chooseCluster(cluster, /*quiet=*/true, /*remember=*/false)) {
            std::fprintf(stderr,
                         "hsdp-studio: --cluster %s: not a preset (%s), a readable "
                         "hsdp-cluster/1 file or none\n",
                         qPrintable(cluster), qPrintable(presetList()));
            return 2;
        }
    }
    if (parser.isSet(screenshot)) {
        if (files.size() != 1) {
            std::fprintf(stderr, "hsdp-studio: --screenshot DIR needs exactly one SCENARIO\n");
            return 2;
        }
        return screenshots(window, parser.value(screenshot), files.front(), choice, formats);
    }
    // Unsaved edits are set aside as they are made, and what a studio that
    // crashed or was killed left is offered back.
    window.enableAutosave(autosave);
    window.show();
    if (request || !choice.savedRun.isEmpty()) {
        // The first plan of the file starts the run (or opens the saved one), once.
        auto started = std::make_shared<QMetaObject::Connection>();
        *started = QObject::connect(&window, &hsdp::MainWindow::planShown, &window,
                                    [&window, choice, started] {
                                        QObject::disconnect(*started);
                                        if (choice.savedRun.isEmpty())
                                            window.startRun(*choice.request);
                                        else
                                            window.openRun(choice.savedRun, choice.savedTrace);
                                    });
    }
    if (!choice.job.isEmpty()) {
        // The first plan of the file opens the job record, once.
        auto opened = std::make_shared<QMetaObject::Connection>();
        *opened = QObject::connect(&window, &hsdp::MainWindow::planShown, &window,
                                   [&window, choice, opened] {
                                       QObject::disconnect(*opened);
                                       window.openJobRecord(choice.job);
                                   });
    }
    if (!files.isEmpty()) window.openScenario(files.front());
    return app.exec();
}
