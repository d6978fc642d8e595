// SPDX-License-Identifier: Apache-2.0
// Runs from the studio window, offscreen: the Run menu's actions and their
// shortcuts; a reference run fills the Verification dock and the status
// line, its filter keeps the mismatches, activating a mismatch selects its
// param and rank; an injected fault puts the engine's error in the banner;
// --screenshot --run writes verification.png; File ▸ Open Run shows a saved
// run (run --json and --trace) as the live one, and refuses a trace of
// another scenario with the reason in the banner.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "derived/plan/plan_index.h"
#include "derived/run/run_status_text.h"
#include "export/chrome_trace.h"
#include "export/run_json.h"
#include "steps/step_widget.h"
#include "studio_test_util.h"
#include "verification/verification_widget.h"
#include "window/main_window.h"
#include "window/stale_banner.h"

using namespace hsdp;
using hsdp::testing::openAndWait;
using hsdp::testing::sample;

namespace {

// Starts `start` and waits for the window's runReady.
RunData runAndWait(MainWindow& window, const std::function<void()>& start) {
    QSignalSpy ready(&window, &MainWindow::runReady);
    start();
    if (!ready.wait(60000)) return {};
    return ready.takeFirst().at(0).value<RunData>();
}

// Writes `text` to `name` in `dir`; returns the path.
QString writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    QFile file(dir.filePath(QLatin1String(name)));
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(text.data(), static_cast<qint64>(text.size()));
    return file.fileName();
}

// The files hsdp-inspect run --json --trace writes for `run` of `plan`.
std::pair<QString, QString> saveRun(const QTemporaryDir& dir, const RunData& run) {
    ChromeTraceOptions options;
    options.worldSize = run.run->worldSize;
    for (const auto& param : run.plan.scenario->params) options.paramNames.push_back(param.name);
    return {writeFile(dir, "run.json", runToJson(*run.run).dump(1)),
            writeFile(dir, "trace.json", traceToChromeJson(run.run->trace, options).dump())};
}

QStringList menuTitles(const MainWindow& window) {
    QStringList titles;
    for (QAction* action : window.menuBar()->actions()) titles << action->text().remove('&');
    return titles;
}

}  // namespace

class TestRunWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void runActionsHaveShortcuts();
    void aReferenceRunFillsTheVerificationDock();
    void anInjectedFaultShowsTheEnginesError();
    void aFailedRunKeepsTheDocksSizes();
    void screenshotModeRuns();
    void aSavedRunOpensAsTheLiveOne();
    void aTraceOfAnotherScenarioIsRefused();
};

void TestRunWindow::runActionsHaveShortcuts() {
    MainWindow window;
    QVERIFY(menuTitles(window).contains(QStringLiteral("Run")));
    QStringList keys;
    for (QAction* action : window.shortcutActions())
        for (const QKeySequence& key : action->shortcuts()) keys << key.toString();
    for (const char* key : {"Ctrl+R", "Ctrl+Shift+R", "Ctrl+."})
        QVERIFY2(keys.contains(QLatin1String(key)), key);
    QCOMPARE(keys.count(QStringLiteral("Ctrl+R")), 1);  // no other action wants it
    QVERIFY(!window.runAction()->isEnabled());          // nothing to run yet
    QVERIFY(!window.cancelRunAction()->isEnabled());
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    QVERIFY(window.runAction()->isEnabled());
    // The shortcut runs: Ctrl+R on the shown window.
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    RunData run =
        runAndWait(window, [&] { QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier); });
    QVERIFY(run.isValid());
    QCOMPARE(run.run->mode, RunMode::Corrected);
    QVERIFY(run.run->verified);
    QCOMPARE(window.runStatusText(), runStatusLine(*run.run));
    QVERIFY(window.runStatusText().startsWith(QStringLiteral("verified: ")));
}

void TestRunWindow::aReferenceRunFillsTheVerificationDock() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("diagnostics_tour.json")));
    QSignalSpy busy(window.runSession(), &RunSession::busyChanged);
    RunData run = runAndWait(window, [&] { window.runReferenceAction()->trigger(); });
    QVERIFY(run.isValid());
    QCOMPARE(busy.count(), 2);
    QCOMPARE(run.run->mode, RunMode::Reference);
    QCOMPARE(window.lastRun().run, run.run);
    VerificationWidget* panel = window.view<VerificationWidget>();
    QCOMPARE(panel->model()->run().run, run.run);
    QCOMPARE(panel->summaryText(), runSummaryLine(*run.run));
    QVERIFY(window.runStatusText().startsWith(QStringLiteral("NOT verified: ")));
    // The status bar counts in the Verification view's (and the CLI's) word.
    const RunCounts counts = countRun(*run.run);
    QVERIFY(counts.paramsFailed > 0);
    QVERIFY(panel->summaryText().contains(QStringLiteral("%1 failed").arg(counts.paramsFailed)));
    QVERIFY(window.runStatusText().contains(QStringLiteral("%1 failed").arg(counts.paramsFailed)));
    QVERIFY(!window.runStatusText().contains(QStringLiteral("mismatch")));

    // The filter keeps the params with a mismatch (and their mismatch rows).
    panel->filterEdit()->setText(QStringLiteral("mismatch"));
    QSortFilterProxyModel* proxy = panel->proxy();
    QModelIndex params =
        proxy->mapFromSource(panel->model()->sectionIndex(VerificationModel::ParamsSection));
    int mismatched = 0;
    for (const ParamRunResult& p : run.run->params) mismatched += paramMismatched(p);
    QVERIFY(mismatched > 0);
    QCOMPARE(proxy->rowCount(params), mismatched);

    // Activating a mismatch row selects its param, with its group and batch, and its rank.
    QModelIndex firstParam =
        panel->model()->index(0, 0, panel->model()->sectionIndex(VerificationModel::ParamsSection));
    QModelIndex failed;
    for (int r = 0; !failed.isValid(); ++r) {
        QModelIndex row = firstParam.siblingAtRow(r);
        QVERIFY(row.isValid());
        if (panel->model()->rowCount(row) > 0) failed = row;
    }
    const ParamRunResult& param = run.run->params[static_cast<size_t>(failed.row())];
    QVERIFY(panel->activate(panel->model()->index(0, 0, failed)));
    QCOMPARE(window.selection()->params(), std::vector<int>{param.index});
    const ParamPlace& place = run.plan.index->params[static_cast<size_t>(param.index)];
    QCOMPARE(window.selection()->group(), place.group);
    QCOMPARE(window.selection()->batch(), place.batch);
    QCOMPARE(window.selection()->ranks(), std::vector<int>{param.mismatches.front().rank});
}

void TestRunWindow::anInjectedFaultShowsTheEnginesError() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    RunRequest request;
    request.fault = FaultSpec{2, 2};
    RunData run = runAndWait(window, [&] { QVERIFY(window.startRun(request)); });
    QVERIFY(run.isValid());
    QVERIFY(!run.run->error.empty());
    QVERIFY(window.banner()->isVisibleTo(&window));
    QVERIFY(window.banner()->showsRunError());
    QCOMPARE(window.banner()->message(), QString::fromStdString(run.run->error));
    QCOMPARE(window.view<VerificationWidget>()->errorText(),
             QString::fromStdString(run.run->error));
    // How many collectives complete before rank 2's fault depends on the
    // threads' timing: one of them is "1 collective".
    const int64_t done = run.run->collectives;
    QCOMPARE(window.runStatusText(),
             QStringLiteral("run failed on rank 2 after %1 %2")
                 .arg(groupedNumber(done))
                 .arg(done == 1 ? QStringLiteral("collective") : QStringLiteral("collectives")));
    // The next run clears the old run's error.
    run = runAndWait(window, [&] { window.runAction()->trigger(); });
    QVERIFY(run.run->verified);
    QVERIFY(!window.banner()->isVisibleTo(&window));
}

// The failed-run banner takes its room from the central view, never from the
// docks: they keep their sizes while it shows and after it goes (the next
// good run), however long the engine's message.
void TestRunWindow::aFailedRunKeepsTheDocksSizes() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, sample("llama3_8b_hsdp_2x4.json")));
    auto docks = [&window] {
        QMap<QString, QSize> sizes;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->isVisible()) sizes[dock->objectName()] = dock->size();
        return sizes;
    };
    RunData run = runAndWait(window, [&] { window.runAction()->trigger(); });
    QVERIFY(run.run->verified);
    QApplication::processEvents();
    const QMap<QString, QSize> before = docks();
    QVERIFY(before.size() >= 4);
    RunRequest request;
    request.fault = FaultSpec{5, 3};
    run = runAndWait(window, [&] { QVERIFY(window.startRun(request)); });
    QVERIFY(!run.run->error.empty());
    QApplication::processEvents();
    QVERIFY(window.banner()->isVisible());
    QCOMPARE(docks(), before);
    run = runAndWait(window, [&] { window.runAction()->trigger(); });
    QVERIFY(run.run->verified);
    QApplication::processEvents();
    QVERIFY(!window.banner()->isVisible());
    QCOMPARE(docks(), before);
}

void TestRunWindow::screenshotModeRuns() {
    QTemporaryDir dir;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(env);
    const QString studio = QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio");
    process.start(studio, {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--run"),
                           QStringLiteral("--mode"), QStringLiteral("reference"),
                           sample("diagnostics_tour.json")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(process.readAllStandardOutput().contains("run: NOT verified"));
    QVERIFY(!QImage(dir.filePath(QStringLiteral("verification.png"))).isNull());
    process.start(studio, {QStringLiteral("--help")});
    QVERIFY(process.waitForFinished(30000));
    const QByteArray help = process.readAllStandardOutput();
    QVERIFY(help.contains("--run") && help.contains("--mode <MODE>"));
    process.start(studio, {QStringLiteral("--screenshot"), dir.path(), QStringLiteral("--run"),
                           QStringLiteral("--mode"), QStringLiteral("sideways"),
                           sample("teaching_2x2.json")});
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 2);
}

void TestRunWindow::aSavedRunOpensAsTheLiveOne() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("diagnostics_tour.json")));
    RunRequest reference;
    reference.mode = RunMode::Reference;
    RunData live = runAndWait(window, [&] { window.startRun(reference); });
    QVERIFY(live.isValid());
    const int liveRows = window.view<VerificationWidget>()->model()->rowCount();
    std::vector<QString> liveCaptions;
    StepWidget* steps = window.view<StepWidget>();
    for (int step = 0; step < steps->stepCount(); ++step) {
        steps->setStep(step);
        liveCaptions.push_back(steps->caption().headline + steps->caption().why);
    }
    QTemporaryDir dir;
    const auto [runFile, traceFile] = saveRun(dir, live);

    RunData saved = runAndWait(window, [&] { QVERIFY(window.openRun(runFile, traceFile)); });
    QVERIFY(saved.isValid());
    QCOMPARE(saved.source, runFile);
    QCOMPARE(window.runStatusText(),
             QStringLiteral("saved run run.json · ") + runStatusLine(*live.run));
    QCOMPARE(saved.run->params.size(), live.run->params.size());
    for (size_t i = 0; i < saved.run->params.size(); ++i) {
        QCOMPARE(saved.run->params[i].gather, live.run->params[i].gather);
        QCOMPARE(saved.run->params[i].mismatches.size(), live.run->params[i].mismatches.size());
    }
    QCOMPARE(saved.run->trace.events.size(), live.run->trace.events.size());
    // The views show what they showed for the live run: the verification
    // rows and every step's caption.
    QCOMPARE(window.view<VerificationWidget>()->model()->rowCount(), liveRows);
    QCOMPARE(steps->stepCount(), static_cast<int>(liveCaptions.size()));
    for (int step = 0; step < steps->stepCount(); ++step) {
        steps->setStep(step);
        QCOMPARE(steps->caption().headline + steps->caption().why, liveCaptions[size_t(step)]);
    }  // The same files from the command line, as screenshots of the saved run.
    QProcess studio;
    studio.start(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-studio"),
                 {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shots")),
                  QStringLiteral("--open-run"), runFile, QStringLiteral("--trace"), traceFile,
                  sample("diagnostics_tour.json")});
    QVERIFY(studio.waitForFinished(60000));
    QCOMPARE(studio.exitCode(), 0);
    QVERIFY(studio.readAllStandardOutput().contains("run: saved run run.json · NOT verified"));
    QVERIFY(!QImage(dir.filePath(QStringLiteral("shots/trace.png"))).isNull());
}

void TestRunWindow::aTraceOfAnotherScenarioIsRefused() {
    MainWindow window;
    QVERIFY(openAndWait(window, sample("teaching_2x2.json")));
    RunData teaching = runAndWait(window, [&] { window.startRun({}); });
    QTemporaryDir teachingDir;
    const QString teachingTrace = saveRun(teachingDir, teaching).second;

    QVERIFY(openAndWait(window, sample("diagnostics_tour.json")));
    RunData tour = runAndWait(window, [&] { window.startRun({}); });
    QTemporaryDir tourDir;
    const QString tourRun = saveRun(tourDir, tour).first;
    QSignalSpy refused(window.runSession(), &RunSession::openFailed);
    QVERIFY(window.openRun(tourRun, teachingTrace));
    QVERIFY(refused.wait(20000));
    const QString reason = refused.takeFirst().at(0).toString();
    QVERIFY2(reason.startsWith(teachingTrace + QStringLiteral(": not the trace of this run")),
             qPrintable(reason));
    QVERIFY(window.banner()->showsRunError());
    QCOMPARE(window.banner()->message(), reason);
    QCOMPARE(window.lastRun().run, tour.run);  // the run on screen stays
}

QTEST_MAIN(TestRunWindow)
#include "tst_run_window.moc"
