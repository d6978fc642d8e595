// SPDX-License-Identifier: Apache-2.0
// hsdp-bench views: the studio's GUI-thread costs at 8,192 ranks, offscreen.
// mesh_paint_ms: one full paint of the mesh view (fitted, a param selected);
// tree_model_build_ms: PlanTreeModel::setResult behind its filter proxy plus
// one walk over every row (what a tree view asks for); tree_rows_build_ms:
// the display rows the session builds off the GUI thread; plan_gui_stall_ms:
// the longest gap in the GUI event loop while a Session reads and plans an
// 8,192-rank scenario file; edit_to_repaint_ms: an option edit in the studio
// window (offscreen) until the window has repainted with the new plan, on the
// 70B sample; run_gui_stall_ms (run_stall.cpp): the longest GUI gap while
// the window runs that sample for real (32 rank threads). --scenario FILE
// measures all of them on FILE. Medians.
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QTemporaryDir>
#include <QTimer>
#include <functional>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "mesh/mesh_canvas.h"
#include "plan_tree/plan_filter_proxy.h"
#include "plan_tree/plan_tree_model.h"
#include "plan_tree/plan_tree_rows.h"
#include "run_stall.h"
#include "scale_scenario.h"
#include "scenario/reader.h"
#include "shared/plan_index.h"
#include "shared/scenario_document.h"
#include "shared/session.h"
#include "trace_bench.h"
#include "window/main_window.h"

namespace hsdp::bench {

const char* const kViewsHelp = R"(usage: hsdp-bench views [--json] [--scenario FILE]

Measures the studio's GUI-thread costs, offscreen, medians of interleaved
rounds; by default at 8,192 ranks (the planner benchmark's guard point):
  mesh_paint_ms            one full paint of the mesh view (fitted, a param
                           selected); goal <= 16
  tree_model_build_ms      PlanTreeModel::setResult behind its filter proxy
                           plus one walk over every row; goal <= 100
  tree_rows_build_ms       the display rows the session builds off the GUI
                           thread
  plan_gui_stall_ms        the longest gap in the GUI event loop while a
                           Session reads and plans the scenario file; goal
                           <= 50 (idle_gui_gap_ms: the machine's own gaps)
  edit_to_repaint_ms       an option edit in the studio window until it has
                           repainted with the new plan (the 70B sample);
                           goal <= 100
  trace_paint_overview_ms, trace_paint_zoomed_ms
                           one paint of the trace timeline, 100,000 events
                           fitted whole, then zoomed; goal <= 16 each
  step_change_ms           one step of the step panel until the views have
                           repainted; goal <= 50
  run_gui_stall_ms         the longest GUI gap while the window runs the
                           70B sample for real; goal <= 50

options:
  --json             print one JSON object instead of text
  --scenario FILE    measure all of them on FILE instead
  -h, --help         show this help

exit status: 0 every goal met; 1 not; 2 bad usage or an unreadable scenario.
)";

namespace {

constexpr int kRounds = 15;

int walk(const QAbstractItemModel& model, const QModelIndex& parent) {
    int rows = model.rowCount(parent), seen = rows;
    for (int r = 0; r < rows; ++r) {
        QModelIndex index = model.index(r, 0, parent);
        for (int c = 0; c < model.columnCount(parent); ++c) (void)model.index(r, c, parent).data();
        seen += walk(model, index);
    }
    return seen;
}

// The same shape as the planner benchmark (16 x 8 x 64 = 8,192 ranks), as a file.
QString writeLargeScenario(const QTemporaryDir& dir) {
    QString path = dir.filePath(QStringLiteral("large.json"));
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(R"json({"format": "hsdp-scenario/1", "name": "8192 ranks",
 "mesh": {"shape": [16, 8, 64], "dim_names": ["dp_replicate", "dp_shard", "tp"]},
 "options": {"max_batch_numel": 300000000},
 "params": [{"repeat": 500, "var": "i", "params": [
  {"name": "l{i}.wq", "shape": [8192, 8192], "dtype": "bf16",
   "placements": ["R", "_StridedShard(dim=0, sf=64)", "Shard(0)"]},
  {"name": "l{i}.wo", "shape": [8192, 8192], "dtype": "bf16", "placements": ["R", "S(0)", "S(1)"]},
  {"name": "l{i}.w1", "shape": [28672, 8192], "dtype": "bf16",
   "placements": ["R", "_StridedShard(dim=0, sf=64)", "Shard(0)"]},
  {"name": "l{i}.w2", "shape": [8192, 28672], "dtype": "bf16", "placements": ["R", "S(0)", "S(1)"]},
  {"name": "l{i}.w3", "shape": [28672, 8192], "dtype": "bf16",
   "placements": ["R", "_StridedShard(dim=0, sf=64)", "Shard(0)"]},
  {"name": "l{i}.norm", "shape": [8192], "dtype": "f32", "placements": ["R", "S(0)", "R"]},
  {"name": "l{i}.bias", "shape": [8192], "dtype": "f32", "placements": ["R", "R", "R"]},
  {"name": "l{i}.experts", "shape": [8, 1024, 8192], "dtype": "bf16",
   "placements": ["R", "S(0)", "R"]}]}]})json");
    return path;
}

struct Gaps {
    double longest = 0;  // seconds the GUI thread went without serving a 1 ms timer
    int elapsedMs = 0;
};

// Serves a 1 ms timer until `done` fires (or after `idleMs` with no work),
// recording the longest gap between ticks.
Gaps gapsUntil(const std::function<void(QEventLoop&)>& start, int idleMs) {
    QElapsedTimer clock;
    Gaps gaps;
    double last = 0;
    QTimer tick;
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        double now = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
        gaps.longest = std::max(gaps.longest, now - last);
        last = now;
    });
    QEventLoop loop;
    clock.start();
    tick.start();
    if (start)
        start(loop);
    else
        QTimer::singleShot(idleMs, &loop, &QEventLoop::quit);
    loop.exec();
    gaps.elapsedMs = static_cast<int>(clock.elapsed());
    return gaps;
}

// The GUI thread while a Session reads and plans `path`, and an idle
// baseline of the same length: on a loaded machine the OS alone causes gaps.
std::pair<double, double> guiStallSeconds(const QString& path) {
    Session session;
    Gaps planning = gapsUntil(
        [&](QEventLoop& loop) {
            QObject::connect(&session, &Session::planReady, &loop, &QEventLoop::quit);
            QObject::connect(&session, &Session::readFailed, &loop, &QEventLoop::quit);
            session.open(path);
        },
        0);
    Gaps idle = gapsUntil({}, planning.elapsedMs);
    return {planning.longest, idle.longest};
}

// One what-if edit, timed from the edit to the end of the window's repaint:
// the document changes, the session re-plans off the GUI thread, every view
// takes the new result, the whole window paints (grab() paints every child).
// The edit toggles the batch cap, so every round really changes the plan.
std::vector<double> editToRepaintSeconds(const QString& path, int rounds) {
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1600, 1000);
    window.show();
    auto waitPlan = [&](const std::function<void()>& start) {
        QEventLoop loop;
        auto ready =
            QObject::connect(window.session(), &Session::planReady, &loop, &QEventLoop::quit);
        auto failed =
            QObject::connect(window.session(), &Session::readFailed, &loop, &QEventLoop::quit);
        start();
        loop.exec();
        QObject::disconnect(ready);
        QObject::disconnect(failed);
    };
    waitPlan([&] { window.openScenario(path); });
    std::vector<double> samples;
    const QString cap = QStringLiteral("/options/max_batch_numel");
    for (int r = 0; r < rounds; ++r) {
        QElapsedTimer clock;
        clock.start();
        waitPlan([&] {
            window.document()->setValue(cap, Json(r % 2 ? int64_t(1) << 40 : int64_t(50000000)),
                                        QStringLiteral("bench"));
        });
        (void)window.grab();
        samples.push_back(static_cast<double>(clock.nsecsElapsed()) * 1e-9);
    }
    return samples;
}

struct ViewsArgs {
    bool json = false;
    QString scenario;  // empty: the built-in points
};

std::optional<ViewsArgs> parseViewsArgs(const std::vector<std::string>& args) {
    ViewsArgs parsed;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            parsed.json = true;
        } else if (args[i] == "--scenario" && i + 1 < args.size()) {
            parsed.scenario = QString::fromStdString(args[++i]);
        } else {
            std::cerr << "hsdp-bench views: unknown or incomplete argument '" << args[i]
                      << "' (usage: hsdp-bench views [--json] [--scenario FILE])\n";
            return std::nullopt;
        }
    }
    return parsed;
}

}  // namespace

int viewsBenchmark(const std::vector<std::string>& rawArgs) {
    std::optional<ViewsArgs> args = parseViewsArgs(rawArgs);
    if (!args) return 2;
    const bool json = args->json;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "hsdp-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("hsdp-bench"));  // its own QSettings
    // The planner benchmark's guard point (4,041 params on an 8,192-rank mesh)
    // unless a scenario is given.
    PlanResult result;
    try {
        result = args->scenario.isEmpty()
                     ? computePlanResult(readScenario(scenarioJson(guardPoint())))
                     : computePlanResult(args->scenario);
    } catch (const std::exception& error) {
        std::cerr << "hsdp-bench views: " << error.what() << "\n";
        return 2;
    }
    PlanSelection selection;
    MeshCanvas mesh(&selection);
    mesh.setResult(result);
    int param = mostInterestingParam(*result.scenario, *result.plan);
    const ParamPlace& place = result.index->params[static_cast<size_t>(param)];
    selection.selectParam(param, place.group, place.batch);
    QImage image(QSize(1600, 1000), QImage::Format_ARGB32_Premultiplied);
    PlanTreeModel model;
    PlanFilterProxy proxy;
    proxy.setSourceModel(&model);
    int rows = 0;
    auto samples = interleaved(
        kRounds, {[&] {
                      QPainter painter(&image);
                      mesh.paintMesh(painter, image.size(), mesh.fitTransform(image.size()));
                  },
                  [&] {
                      model.setResult(result);
                      rows = walk(proxy, {});
                  },
                  [&] { (void)buildPlanTreeRows(*result.scenario, *result.plan, *result.index); }});
    QTemporaryDir dir;
    std::vector<double> stalls, idleGaps;
    QString large = args->scenario.isEmpty() ? writeLargeScenario(dir) : args->scenario;
    for (int r = 0; r < 3; ++r) {
        auto [stall, idle] = guiStallSeconds(large);
        stalls.push_back(stall);
        idleGaps.push_back(idle);
    }
    double paintMs = median(samples[0]) * 1e3, modelMs = median(samples[1]) * 1e3;
    double rowsMs = median(samples[2]) * 1e3, stallMs = median(stalls) * 1e3;
    double idleMs = median(idleGaps) * 1e3;
    const QString editPath =
        args->scenario.isEmpty()
            ? QStringLiteral(HSDP_SOURCE_DIR "/samples/llama3_70b_hsdp_tp_2x4x4.json")
            : args->scenario;
    double editMs = median(editToRepaintSeconds(editPath, kRounds)) * 1e3;
    const TraceBenchFigures trace = traceBenchmark(editPath, kRounds);
    double runStallMs = runGuiStallMs(editPath, 3);
    nlohmann::ordered_json out = {{"benchmark", "views"},
                                  {"ranks", result.plan->worldSize},
                                  {"params", result.scenario->params.size()},
                                  {"tree_rows", rows},
                                  {"rounds", kRounds},
                                  {"mesh_paint_ms", paintMs},
                                  {"tree_model_build_ms", modelMs},
                                  {"tree_rows_build_ms", rowsMs},
                                  {"plan_gui_stall_ms", stallMs},
                                  {"idle_gui_gap_ms", idleMs},
                                  {"edit_to_repaint_ms", editMs},
                                  {"edit_scenario", QFileInfo(editPath).fileName().toStdString()},
                                  {"trace_paint_overview_ms", trace.paintOverviewMs},
                                  {"trace_paint_zoomed_ms", trace.paintZoomedMs},
                                  {"step_change_ms", trace.stepChangeMs},
                                  {"step_change_steps", trace.steps},
                                  {"run_gui_stall_ms", runStallMs},
                                  {"goals",
                                   {{"mesh_paint_ms", 16},
                                    {"tree_model_build_ms", 100},
                                    {"plan_gui_stall_ms", 50},
                                    {"edit_to_repaint_ms", 100},
                                    {"trace_paint_overview_ms", 16},
                                    {"trace_paint_zoomed_ms", 16},
                                    {"step_change_ms", 50},

                                    {"run_gui_stall_ms", 50}}}};
    if (json) {
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "views at " << result.plan->worldSize << " ranks, "
                  << result.scenario->params.size() << " params, offscreen (" << kRounds
                  << " interleaved rounds, medians)\n"
                  << "  mesh_paint_ms        " << paintMs << "  (goal <= 16)\n"
                  << "  tree_model_build_ms  " << modelMs
                  << "  (goal <= 100; reset + proxy + walk of " << rows << " rows)\n"
                  << "  tree_rows_build_ms   " << rowsMs << "  (off the GUI thread)\n"
                  << "  plan_gui_stall_ms    " << stallMs
                  << "  (goal <= 50; longest GUI gap while planning)\n"
                  << "  idle_gui_gap_ms      " << idleMs
                  << "  (same wait, nothing planned: the machine's own gaps)\n"
                  << "  edit_to_repaint_ms   " << editMs << "  (goal <= 100; "
                  << QFileInfo(editPath).fileName().toStdString()
                  << ": batch-cap edit, re-plan, every view, window repaint)\n"
                  << "  trace_paint_overview_ms " << trace.paintOverviewMs
                  << "  (goal <= 16; 100,000 events, 50 ranks, 1600x1000)\n"
                  << "  trace_paint_zoomed_ms   " << trace.paintZoomedMs
                  << "  (goal <= 16; 1/200 of the run)\n"
                  << "  step_change_ms          " << trace.stepChangeMs
                  << "  (goal <= 50; step panel + trace + mesh view repaint, " << trace.steps
                  << " steps)\n"
                  << "  run_gui_stall_ms        " << runStallMs
                  << "  (goal <= 50; longest GUI gap while the window runs the edit scenario)\n";
    }
    bool met = paintMs <= 16 && modelMs <= 100 && stallMs <= 50 && editMs <= 100 &&
               trace.paintOverviewMs <= 16 && trace.paintZoomedMs <= 16 &&
               trace.stepChangeMs <= 50 && runStallMs <= 50;
    return met ? 0 : 1;
}

}  // namespace hsdp::bench
