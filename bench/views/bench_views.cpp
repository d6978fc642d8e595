// SPDX-License-Identifier: Apache-2.0
// hsdp-bench views: the studio's GUI-thread costs, offscreen, medians; by
// default at 8,192 ranks, with --ranks N on a generated N-rank scenario (the
// 131,072-rank case: a 128x128x8 mesh), with --scenario FILE on FILE. What
// each figure is: kViewsHelp.
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QTemporaryDir>
#include <QTimer>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include <qcustomplot.h>
#include "bench_common.h"
#include "derived/plan/plan_index.h"
#include "derived/plan/plan_tree_rows.h"
#include "derived/plan/scenario_document.h"
#include "derived/session.h"
#include "edit_repaint.h"
#include "mesh/mesh_canvas.h"
#include "owner_balance/owner_balance_widget.h"
#include "plan_tree/plan_filter_proxy.h"
#include "plan_tree/plan_tree_model.h"
#include "run_stall.h"
#include "scale_scenario.h"
#include "scenario/reader.h"
#include "trace_bench.h"
#include "window/main_window.h"

namespace hsdp::bench {

const char* const kViewsHelp = R"(usage: hsdp-bench views [--json] [--scenario FILE | --ranks N]

Measures the studio's GUI-thread costs, offscreen (1600x1000), medians of
interleaved rounds; by default at 8,192 ranks (the planner benchmark's guard
point), the edits and runs on the 70B sample:
  mesh_paint_ms            one full paint of the mesh view (fitted, a param
                           selected); goal <= 16
  chart_paint_ms           the owner balance view's three charts replotted;
                           goal <= 16
  tree_model_build_ms      PlanTreeModel::setResult behind its filter proxy
                           plus one walk over every row; goal <= 100
  tree_rows_build_ms       the display rows the session builds off the GUI
                           thread
  plan_gui_stall_ms        the longest gap in the GUI event loop while a
                           Session reads and plans the scenario file; goal
                           <= 50 (idle_gui_gap_ms: the machine's own gaps)
  edit_to_repaint_ms       an option edit in the studio window until it has
                           repainted with the new plan; goal <= 100, <= 250
                           above 8,192 ranks
  edit_gui_stall_ms        the longest GUI gap from an edit to its repaint,
                           the repaint included; goal <= 50
  studio_peak_mib          the process's peak resident memory after the
                           window's edits (measured first); goal <= 1536
  edit_plan_ms, edit_diff_ms, edit_show_ms
                           where an edit's time goes: the slower of its two
                           re-plans and the plan diff, each alone, off the
                           GUI thread; the GUI thread's time per view
  trace_paint_overview_ms, trace_paint_zoomed_ms
                           one paint of the trace timeline, 100,000 events
                           fitted whole, then zoomed; goal <= 16 each
  step_change_ms           one step of the step panel until the views have
                           repainted; goal <= 50 (not with --ranks)
  run_gui_stall_ms         the longest GUI gap while the window runs the
                           edit scenario for real; goal <= 50 (not with --ranks)

options:
  --json             print one JSON object instead of text
  --scenario FILE    measure all of them on FILE instead
  --ranks N          measure all of them on a generated scenario of N ranks
                     (a power of two; 12,020 params on [a, b, 8]); too many
                     to run, so no step or run figures
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

struct ViewsArgs {
    bool json = false;
    QString scenario;   // empty: the built-in points
    int64_t ranks = 0;  // > 0: a generated scenario of this many ranks
};

bool isPowerOfTwo(int64_t n) {
    return n > 0 && (n & (n - 1)) == 0;
}

std::optional<ViewsArgs> parseViewsArgs(const std::vector<std::string>& args) {
    ViewsArgs parsed;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            parsed.json = true;
        } else if (args[i] == "--scenario" && i + 1 < args.size()) {
            parsed.scenario = QString::fromStdString(args[++i]);
        } else if (args[i] == "--ranks" && i + 1 < args.size()) {
            parsed.ranks = std::atoll(args[++i].c_str());
            if (!isPowerOfTwo(parsed.ranks) || parsed.ranks < 64 || parsed.ranks > (1 << 20)) {
                std::cerr << "hsdp-bench views: --ranks takes a power of two from 64 to 1048576, "
                             "not '"
                          << args[i] << "'\n";
                return std::nullopt;
            }
        } else {
            std::cerr << "hsdp-bench views: unknown or incomplete argument '" << args[i]
                      << "' (usage: hsdp-bench views [--json] [--scenario FILE | --ranks N])\n";
            return std::nullopt;
        }
    }
    if (!parsed.scenario.isEmpty() && parsed.ranks) {
        std::cerr << "hsdp-bench views: --scenario and --ranks exclude each other\n";
        return std::nullopt;
    }
    return parsed;
}

// The files each figure is measured on: the built-in points, --scenario FILE
// for all of them, or --ranks N's generated scenario for all of them.
struct ViewsInputs {
    QString plan;   // empty: the planner benchmark's guard point, in memory
    QString stall;  // planned while the GUI gaps are measured
    QString edit;   // edited in the window (and run, when runnable)
    bool runnable = true;
};

ViewsInputs viewsInputs(const ViewsArgs& args, const QTemporaryDir& dir) {
    if (!args.scenario.isEmpty()) return {args.scenario, args.scenario, args.scenario, true};
    if (args.ranks) {
        QString path = dir.filePath(QStringLiteral("generated.json"));
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(scenarioJson(pointOfRanks(args.ranks)).c_str());
        // Too many ranks to run for real on one machine: no run, no steps.
        return {path, path, path, false};
    }
    return {{},
            writeLargeScenario(dir),
            QStringLiteral(HSDP_SOURCE_DIR "/samples/llama3_70b_hsdp_tp_2x4x4.json"),
            true};
}

PlanResult planOf(const QString& path) {
    return path.isEmpty() ? computePlanResult(readScenario(scenarioJson(guardPoint())))
                          : computePlanResult(path);
}

using Goals = std::vector<std::pair<std::string, double>>;
// Prints and records one figure: its key, value, goal (0: none) and what it is.
using Figure = std::function<void(const char*, double, double, const std::string&)>;

// The views that paint a plan: the mesh fitted with a param selected, the
// owner balance charts, the plan tree's model and rows.
// Returns the tree's row count.
int measurePlanViews(const PlanResult& result, const Figure& figure) {
    PlanSelection selection;
    MeshCanvas mesh(&selection);
    mesh.setResult(result);
    int param = mostInterestingParam(*result.scenario, *result.plan);
    const ParamPlace& place = result.index->params[static_cast<size_t>(param)];
    selection.selectParam(param, place.group, place.batch);
    // A mesh drawn in blocks (above 16,384 ranks) also zoomed into its worst block.
    MeshCanvas zoomed(&selection);
    zoomed.setResult(result);
    const bool blocks =
        !zoomed.worstBlocks().empty() && zoomed.zoomIntoBlock(zoomed.worstBlocks().front());
    OwnerBalanceWidget balance(&selection);
    balance.setAttribute(Qt::WA_DontShowOnScreen);
    balance.resize(1600, 1000);
    balance.show();
    balance.setResult(result);
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
                      if (!blocks) return;
                      QPainter painter(&image);
                      zoomed.paintMesh(painter, image.size(), zoomed.fitTransform(image.size()));
                  },
                  [&] {
                      for (QCustomPlot* plot : balance.plots())
                          plot->replot(QCustomPlot::rpImmediateRefresh);
                  },
                  [&] {
                      model.setResult(result);
                      rows = walk(proxy, {});
                  },
                  [&] { (void)buildPlanTreeRows(*result.scenario, *result.plan, *result.index); }});
    figure("mesh_paint_ms", median(samples[0]) * 1e3, 16,
           blocks ? "mesh view at its overview of blocks, 1600x1000, a param selected"
                  : "mesh view fitted to 1600x1000, a param selected");
    if (blocks)
        figure("mesh_paint_zoomed_ms", median(samples[1]) * 1e3, 16,
               "zoomed into the worst block: rank cells");
    figure("chart_paint_ms", median(samples[2]) * 1e3, 16,
           "owner balance: its three charts replotted at 1600x1000");
    figure("tree_model_build_ms", median(samples[3]) * 1e3, 100,
           "reset + proxy + walk of " + std::to_string(rows) + " rows");
    figure("tree_rows_build_ms", median(samples[4]) * 1e3, 0, "off the GUI thread");
    return rows;
}

// The longest GUI gap while a Session plans `path`, and the idle baseline.
std::pair<double, double> guiStalls(const QString& path) {
    std::vector<double> stalls, idleGaps;
    for (int r = 0; r < 3; ++r) {
        auto [stall, idle] = guiStallSeconds(path);
        stalls.push_back(stall);
        idleGaps.push_back(idle);
    }
    return {median(stalls) * 1e3, median(idleGaps) * 1e3};
}

// Returns the steps the step change walked (0: not runnable).
int measureTrace(const ViewsInputs& inputs, const Figure& figure) {
    const TraceBenchFigures trace =
        traceBenchmark(inputs.runnable ? inputs.edit : QString(), kRounds);
    figure("trace_paint_overview_ms", trace.paintOverviewMs, 16,
           "100,000 events, 50 ranks, 1600x1000");
    figure("trace_paint_zoomed_ms", trace.paintZoomedMs, 16, "1/200 of the run");
    if (!inputs.runnable) return 0;
    figure("step_change_ms", trace.stepChangeMs, 50,
           "step panel + trace + mesh view repaint, " + std::to_string(trace.steps) + " steps");
    figure("run_gui_stall_ms", runGuiStallMs(inputs.edit, 3), 50,
           "longest GUI gap while the window runs the edit scenario");
    return trace.steps;
}

}  // namespace

int viewsBenchmark(const std::vector<std::string>& rawArgs) {
    std::optional<ViewsArgs> args = parseViewsArgs(rawArgs);
    if (!args) return 2;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "hsdp-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("hsdp-bench"));  // its own QSettings
    QTemporaryDir dir;
    const ViewsInputs inputs = viewsInputs(*args, dir);
    PlanResult result;
    try {
        result = planOf(inputs.plan);
        if (inputs.edit != inputs.plan) (void)computePlanResult(inputs.edit);
    } catch (const std::exception& error) {
        std::cerr << "hsdp-bench views: " << error.what() << "\n";
        return 2;
    }
    // The window first, so the peak memory is the studio's, not this benchmark's.
    const EditFigures edit = editFigures(inputs.edit, kRounds);
    nlohmann::ordered_json out = {{"benchmark", "views"},
                                  {"ranks", result.plan->worldSize},
                                  {"params", result.scenario->params.size()},
                                  {"rounds", kRounds}};
    Goals goals;
    auto figure = [&](const char* key, double value, double goal, const std::string& what) {
        out[key] = value;
        if (goal > 0) goals.emplace_back(key, goal);
        if (args->json) return;
        std::cout << "  " << key << std::string(std::max<size_t>(1, 25 - strlen(key)), ' ') << value
                  << "  (" << (goal > 0 ? "goal <= " + nlohmann::json(goal).dump() + "; " : "")
                  << what << ")\n";
    };
    if (!args->json)
        std::cout << "views at " << result.plan->worldSize << " ranks, "
                  << result.scenario->params.size() << " params, offscreen (" << kRounds
                  << " interleaved rounds, medians)\n";
    out["tree_rows"] = measurePlanViews(result, figure);
    auto stalls = guiStalls(inputs.stall);
    figure("plan_gui_stall_ms", stalls.first, 50, "longest GUI gap while planning");
    figure("idle_gui_gap_ms", stalls.second, 0,
           "same wait, nothing planned: the machine's own gaps");
    const std::string editName = QFileInfo(inputs.edit).fileName().toStdString();
    const bool large = result.plan->worldSize > 8192;
    figure("edit_to_repaint_ms", edit.toRepaintMs, large ? 250 : 100,
           editName + ": batch-cap edit, re-plan, every view, window repaint");
    figure("edit_gui_stall_ms", edit.guiStallMs, 50,
           "longest GUI gap from an edit to its repaint, the repaint included");
    figure("studio_peak_mib", edit.peakMiB, 1536, "peak resident memory of the edited window");
    figure("edit_plan_ms", edit.planMs, 0,
           "of the edit: the slower of its two re-plans alone, off the GUI thread");
    figure("edit_diff_ms", edit.diffMs, 0, "of the edit: the plan diff alone, off the GUI thread");
    out["edit_show_ms"] = nlohmann::ordered_json::object();
    std::string slowest;
    for (size_t v = 0; v < edit.showMs.size(); ++v) {
        out["edit_show_ms"][edit.showMs[v].first] = edit.showMs[v].second;
        if (v < 4)
            slowest += (v ? ", " : "") + edit.showMs[v].first + " " +
                       QString::number(edit.showMs[v].second, 'f', 1).toStdString();
    }
    if (!args->json)
        std::cout << "  edit_show_ms             GUI thread per view, slowest: " << slowest
                  << " ms\n";
    out["edit_scenario"] = editName;
    if (int steps = measureTrace(inputs, figure)) out["step_change_steps"] = steps;
    if (!inputs.runnable) out["not_run"] = "too many ranks to run here: no step or run figures";
    out["goals"] = nlohmann::ordered_json::object();
    bool met = true;
    for (const auto& [key, goal] : goals) {
        out["goals"][key] = goal;
        met = met && out[key].get<double>() <= goal;
    }
    if (args->json) std::cout << out.dump(1) << "\n";
    return met ? 0 : 1;
}

}  // namespace hsdp::bench
