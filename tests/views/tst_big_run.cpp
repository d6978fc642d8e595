// SPDX-License-Identifier: Apache-2.0
// A real saved run of 1,024 ranks (tests/data/scale/hsdp_tp_4x16x16.json,
// run split over 2 worker processes by hsdp-inspect run --procs 2 --json
// --trace) opens in the studio window: no multi-second stall of the GUI
// thread while it opens, and the Trace view shows it grouped and folded,
// one summary row per group, every rank in exactly one group.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <set>

#include "cli_process.h"
#include "steps/step_widget.h"
#include "studio_test_util.h"
#include "trace/trace_widget.h"
#include "window/main_window.h"

using namespace hsdp;

class TestBigRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void aSavedRunOf1024RanksOpensGrouped();
};

void TestBigRun::aSavedRunOf1024RanksOpensGrouped() {
    const QString scenario =
        QStringLiteral(HSDP_SOURCE_DIR "/tests/data/scale/hsdp_tp_4x16x16.json");
    QTemporaryDir dir;
    const QString runFile = dir.filePath(QStringLiteral("run.json"));
    const QString traceFile = dir.filePath(QStringLiteral("trace.json"));
    QProcess inspect;
    inspect.setStandardOutputFile(runFile);
    inspect.start(QStringLiteral(HSDP_BINARY_DIR "/bin/hsdp-inspect"),
                  {QStringLiteral("run"), scenario, QStringLiteral("--procs"), QStringLiteral("2"),
                   QStringLiteral("--json"), QStringLiteral("--trace"), traceFile});
    QVERIFY(inspect.waitForFinished(240000));
    QVERIFY2(inspect.exitCode() == 0, inspect.readAllStandardError().constData());

    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(testing::openAndWait(window, scenario));
    // The longest the GUI thread went without running a 1 ms timer while
    // the run opened (read, indexed off the GUI thread, shown by every view).
    QElapsedTimer clock;
    double last = 0, longest = 0;
    QTimer tick;
    tick.setInterval(1);
    connect(&tick, &QTimer::timeout, [&] {
        const double now = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
        longest = std::max(longest, now - last);
        last = now;
    });
    QSignalSpy ready(&window, &MainWindow::runReady);
    clock.start();
    tick.start();
    QVERIFY(window.openRun(runFile, traceFile));
    QVERIFY(ready.wait(60000));
    (void)window.grab();  // and its first paint
    const double now = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
    longest = std::max(longest, now - last);
    tick.stop();
    qInfo("opened in %.2f s; longest GUI gap %.0f ms", now, longest * 1e3);
    QVERIFY2(longest < 2.0, qPrintable(QStringLiteral("GUI stalled %1 s").arg(longest)));

    TraceCanvas* canvas = window.view<TraceWidget>()->canvas();
    QVERIFY(canvas->timeline());
    QCOMPARE(canvas->timeline()->rowCount(), 1024);
    const TraceRowLayout& layout = canvas->rowLayout();
    QVERIFY(layout.isGrouped());
    QCOMPARE(layout.lineCount(), static_cast<int>(layout.groups().size()));
    std::multiset<int> ranks;
    for (const auto& group : layout.groups())
        for (int row : group.rows) ranks.insert(canvas->timeline()->row(row).rank);
    QCOMPARE(ranks.size(), size_t(1024));
    QCOMPARE(std::set<int>(ranks.begin(), ranks.end()).size(), size_t(1024));
    QVERIFY(window.view<StepWidget>()->stepCount() > 0);
    // Unfolding everything and painting stays well under a second.
    QElapsedTimer paint;
    paint.start();
    canvas->setAllGroupsCollapsed(false);
    QVERIFY(!canvas->renderImage(QSize(1600, 1000)).isNull());
    QVERIFY(paint.elapsed() < 1000);
}

QTEST_MAIN(TestBigRun)
#include "tst_big_run.moc"
