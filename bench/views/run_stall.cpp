// SPDX-License-Identifier: Apache-2.0
#include "run_stall.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <vector>

#include "bench_common.h"
#include "gap_meter.h"
#include "window/main_window.h"

namespace hsdp::bench {

namespace {

// The longest time the GUI thread went without serving a 1 ms timer from
// the start of a run until 300 ms after the window's runReady (bench_views'
// gap idea).
double longestGapUntilRunReady(MainWindow& window, const RunRequest& request) {
    QEventLoop loop;
    // The repaints that show the result belong to the run: keep serving a while.
    QObject::connect(&window, &MainWindow::runReady, &loop,
                     [&loop] { QTimer::singleShot(300, &loop, &QEventLoop::quit); });
    GapMeter gaps;
    if (!window.startRun(request)) return -1;
    loop.exec();
    return gaps.longestClosed();
}

}  // namespace

double runGuiStallMs(const QString& path, int rounds) {
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
    QEventLoop planned;
    QObject::connect(&window, &MainWindow::planShown, &planned, &QEventLoop::quit);
    QObject::connect(window.session(), &Session::readFailed, &planned, &QEventLoop::quit);
    window.openScenario(path);
    planned.exec();
    std::vector<double> gaps;
    for (int r = 0; r < rounds; ++r) gaps.push_back(longestGapUntilRunReady(window, {}));
    return median(gaps) * 1e3;
}

}  // namespace hsdp::bench
