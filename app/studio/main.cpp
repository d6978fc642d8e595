// hsdp-studio: the studio window, or with --screenshot its views as PNGs
// (no display needed). A thin main: everything lives in widgets/.
#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QIcon>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

#include "views/main_window.h"
#include "views/screenshots.h"

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

// Waits for the first plan (or the reader's error) of the window's session.
bool waitForPlan(hsdp::MainWindow& window, QString* error) {
    QEventLoop loop;
    QObject::connect(window.session(), &hsdp::Session::planReady, &loop, [&] { loop.quit(); });
    QObject::connect(window.session(), &hsdp::Session::readFailed, &loop,
                     [&](const QString& message) {
                         *error = message;
                         loop.quit();
                     });
    loop.exec();
    return error->isEmpty();
}

int screenshots(hsdp::MainWindow& window, const QString& dir, const QString& scenario) {
    window.openScenario(scenario);
    QString error;
    if (!waitForPlan(window, &error)) {
        std::fprintf(stderr, "hsdp-studio: %s\n", qPrintable(error));
        return 2;
    }
    QStringList written = hsdp::writeScreenshots(window, dir, &error);
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
    QApplication::setApplicationVersion(QStringLiteral(HSDP_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/hsdp-studio.svg")));
    QApplication::setDesktopFileName(QStringLiteral("hsdp-studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("HSDP Studio: see, check and debug HSDP sharding plans."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Write each view of SCENARIO as a PNG into DIR and exit."),
        QStringLiteral("DIR"));
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("scenario"),
                                 QStringLiteral("An hsdp-scenario/1 JSON file to open."));
    parser.process(app);
    const QStringList files = parser.positionalArguments();

    hsdp::MainWindow window;
    if (parser.isSet(screenshot)) {
        if (files.size() != 1) {
            std::fprintf(stderr, "hsdp-studio: --screenshot DIR needs exactly one SCENARIO\n");
            return 2;
        }
        return screenshots(window, parser.value(screenshot), files.front());
    }
    window.show();
    if (!files.isEmpty()) window.openScenario(files.front());
    return app.exec();
}
