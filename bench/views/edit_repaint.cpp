// SPDX-License-Identifier: Apache-2.0
// One what-if edit, timed from the edit to the end of the window's repaint:
// the document changes, the session re-plans off the GUI thread, every view
// takes the new result, the whole window paints (grab() paints every child).
// The edit toggles the batch cap, so every round really changes the plan.
// Meanwhile a 1 ms timer measures the longest time the GUI thread could not
// serve it: the stall a user feels while typing.
#include "edit_repaint.h"

#include <sys/resource.h>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <functional>
#include <vector>

#include "bench_common.h"
#include "derived/plan/scenario_document.h"
#include "derived/session.h"
#include "gap_meter.h"
#include "plan_diff/plan_diff_table.h"
#include "window/main_window.h"

namespace hsdp::bench {

namespace {

double peakResidentMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

// Runs `start` and serves the event loop until every view holds the new plan
// (or the session fails); returns the longest gap between ticks of a 1 ms timer.
double longestGapUntilPlanned(MainWindow& window, const std::function<void()>& start) {
    QEventLoop loop;
    // Views may finish their share of a plan in queued calls: serve those too.
    auto ready = QObject::connect(&window, &MainWindow::planShown, &loop,
                                  [&loop] { QTimer::singleShot(0, &loop, &QEventLoop::quit); });
    auto failed =
        QObject::connect(window.session(), &Session::readFailed, &loop, &QEventLoop::quit);
    GapMeter gaps;
    start();
    loop.exec();
    QObject::disconnect(ready);
    QObject::disconnect(failed);
    return gaps.longest();
}

// The views' medians over rounds of MainWindow::lastShowTimes, slowest first.
std::vector<std::pair<std::string, double>> slowestViews(
    const std::vector<std::vector<MainWindow::ShowTime>>& rounds) {
    std::vector<std::pair<std::string, double>> out;
    if (rounds.empty()) return out;
    for (size_t v = 0; v < rounds.front().size(); ++v) {
        std::vector<double> ms;
        for (const auto& round : rounds)
            if (v < round.size()) ms.push_back(round[v].ms);
        out.emplace_back(rounds.front()[v].what, median(ms));
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
}

// The edit's off-GUI work alone, on the window's last two documents: the
// session's re-plan and the plan-diff tracker's comparison.
void measurePlanAndDiff(const MainWindow& window, int rounds, EditFigures& out) {
    auto after = window.document()->snapshot();
    Json edited = *after;
    const Json small = int64_t(50000000);
    Json& cap = edited["options"]["max_batch_numel"];
    cap = cap == small ? Json(int64_t(1) << 40) : small;  // the other of the two edits
    auto before = std::make_shared<const Json>(std::move(edited));
    // The two edits make different plans (one batch or hundreds a group):
    // the slower re-plan is the figure.
    std::vector<double> plansBefore, plansAfter, diffs;
    for (int r = 0; r < rounds; ++r) {
        PlanResult a, b;
        plansBefore.push_back(
            secondsOf([&] { a = computePlanResult(before, QString(), nullptr); }));
        plansAfter.push_back(secondsOf([&] { b = computePlanResult(after, QString(), nullptr); }));
        diffs.push_back(secondsOf([&] {
            (void)computePlanChange(a, b, CurrentSide::After, QStringLiteral("before"),
                                    QStringLiteral("after"));
        }));
    }
    const double plans = std::max(median(plansBefore), median(plansAfter));
    out.planMs = plans * 1e3;
    out.diffMs = median(diffs) * 1e3;
}

}  // namespace

EditFigures editFigures(const QString& path, int rounds) {
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
    longestGapUntilPlanned(window, [&] { window.openScenario(path); });
    (void)window.grab();
    std::vector<double> toRepaint, stalls;
    std::vector<std::vector<MainWindow::ShowTime>> shows;
    const QString cap = QStringLiteral("/options/max_batch_numel");
    for (int r = 0; r < rounds; ++r) {
        QElapsedTimer clock;
        clock.start();
        double gap = longestGapUntilPlanned(window, [&] {
            window.document()->setValue(cap, Json(r % 2 ? int64_t(1) << 40 : int64_t(50000000)),
                                        QStringLiteral("bench"));
        });
        double repaint = secondsOf([&] { (void)window.grab(); });
        toRepaint.push_back(static_cast<double>(clock.nsecsElapsed()) * 1e-9);
        stalls.push_back(std::max(gap, repaint));
        shows.push_back(window.lastShowTimes());
    }
    EditFigures out{median(toRepaint) * 1e3, median(stalls) * 1e3, peakResidentMiB(),
                    slowestViews(shows)};
    measurePlanAndDiff(window, std::min(rounds, 3), out);
    return out;
}

}  // namespace hsdp::bench
