// SPDX-License-Identifier: Apache-2.0
// hsdp-bench scale: how large a world runs and verifies on this machine, in
// one process and split over worker processes (hsdp-inspect run --procs), and
// what connecting its process groups costs. Each world is a few small layers
// on a growing mesh, run as the user runs it (whole processes); the in-process
// side stops at its first failure (usually the open-file limit).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "cost/plan_scenario.h"
#include "distributed/rank_split.h"
#include "plan/planner.h"
#include "run/runner.h"
#include "scale_measure.h"
#include "scale_worlds.h"
#include "scenario/reader.h"
#include "work_dir.h"

namespace hsdp::bench {

const char* const kScaleHelp =
    R"(usage: hsdp-bench scale [--json] [--max-ranks N] [--procs N|auto] [--timeout S]
                        [--keep DIR] [--inspect PATH]

Measures how large a world runs and verifies on this machine, as the user
runs it (whole `hsdp-inspect run` processes): a few small layers on growing
meshes (2-D HSDP 2x8 .. 2x64, then 3-D HSDP + TP 4x8x8 .. 8x16x16), each
in one process (stopping at its first failure, usually the open-file
limit) and split over worker processes (`run --procs`). Prints each run's
time and connect time, the sockets it needs, the largest world verified
each way, and how connect time grows with sockets (log-log slope). Goals:
2x64 verifies in one process, the 1,024-rank 3-D world verifies split
within 600 s, connect time no worse than linear.

options:
  --json            print one JSON object instead of text
  --max-ranks N     the largest world to try (default 1,024)
  --procs N|auto    worker processes of the split runs, 2 or more, or auto
                    (as `run --procs auto`; default 4)
  --timeout S       the limit of each run in seconds (default 900)
  --keep DIR        write the scenarios and results into DIR and keep them
                    (default: a temporary directory, removed afterwards)
  --inspect PATH    the hsdp-inspect to run (default: the one beside hsdp-bench)
  -h, --help        show this help

exit status: 0 every split run verified; 1 not; 2 bad usage.
)";

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr int64_t kGoalHsdpRanks = 128;    // a 2x64 mesh verifies here
constexpr int64_t kGoalSplitRanks = 1024;  // a 1,024-rank 3-D mesh verifies split...
constexpr double kGoalSplitSeconds = 600;  // ...within 10 minutes

struct Options {
    bool json = false;
    int64_t maxRanks = 1024;
    std::string procs = "4";  // a count, or "auto"
    double timeoutSeconds = 900;
    std::string keepDir;
    std::string inspect;
};

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    o.inspect = (fs::read_symlink("/proc/self/exe").parent_path() / "hsdp-inspect").string();
    for (size_t i = 0; i < args.size(); ++i) {
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
            return args[++i];
        };
        if (args[i] == "--json")
            o.json = true;
        else if (args[i] == "--max-ranks")
            o.maxRanks = std::stoll(value());
        else if (args[i] == "--procs")
            o.procs = value();
        else if (args[i] == "--timeout")
            o.timeoutSeconds = std::stod(value());
        else if (args[i] == "--keep")
            o.keepDir = value();
        else if (args[i] == "--inspect")
            o.inspect = value();
        else
            throw std::invalid_argument("unknown option " + args[i]);
    }
    if (o.procs != "auto" && std::stoi(o.procs) < 2)
        throw std::invalid_argument("--procs must be 2 or more, or auto");
    return o;
}

// One world's row: its sockets (the estimate `run` prints) and both runs.
struct ScaleRow {
    ScaleWorld world;
    long sockets = 0;       // every group connected in one process
    long splitSockets = 0;  // in the busiest worker process
    int procs = 0;          // worker processes of the split run
    long limit = -1;        // open-file limit
    ScaleRun one, split;
};

ScaleRow measureWorld(const ScaleWorld& world, const Options& o, bool runOne,
                      const std::string& dir) {
    ScaleRow row;
    row.world = world;
    const std::string stem = dir + "/" + std::to_string(world.ranks()) + "-ranks";
    const std::string path = stem + ".scenario.json";
    std::ofstream(path) << world.scenarioJson();
    const Scenario scenario = readScenarioFile(path);
    const Plan plan = planScenario(scenario);
    const RunOptions defaults;
    const SocketEstimate one = runSocketEstimate(scenario, plan, defaults);
    row.sockets = one.sockets;
    row.limit = one.limit;
    row.procs =
        o.procs == "auto" ? std::max(2, autoProcs(scenario, plan, defaults)) : std::stoi(o.procs);
    row.splitSockets = splitSocketEstimate(scenario, plan, defaults, row.procs).sockets;
    std::cerr << "hsdp-bench scale: " << world.label << ", " << world.ranks() << " ranks";
    if (runOne) {
        std::cerr << ": one process..." << std::flush;
        row.one = runScaleWorld(o.inspect, path, {}, stem + ".one", o.timeoutSeconds);
    } else {
        row.one.note = "a smaller world failed in one process";
    }
    std::cerr << " --procs " << row.procs << "...\n";
    row.split = runScaleWorld(o.inspect, path, {"--procs", std::to_string(row.procs)},
                              stem + ".split", o.timeoutSeconds);
    return row;
}

Json runJson(const ScaleRun& run) {
    Json j = {{"result", resultName(run.result)}};
    if (run.result != ScaleRun::Result::Skipped) j["seconds"] = run.wallSeconds;
    if (run.verified()) j["connect_seconds"] = run.connectSeconds;
    if (!run.note.empty()) j["note"] = run.note;
    return j;
}

// The largest world whose `side` verified, or nullptr.
const ScaleRow* largestVerified(const std::vector<ScaleRow>& rows, ScaleRun ScaleRow::*side) {
    const ScaleRow* best = nullptr;
    for (const auto& r : rows)
        if ((r.*side).verified()) best = &r;
    return best;
}

double connectSlope(const std::vector<ScaleRow>& rows, ScaleRun ScaleRow::*side) {
    std::vector<double> sockets, seconds;
    for (const auto& r : rows)
        if ((r.*side).verified() && (r.*side).connectSeconds > 0) {
            sockets.push_back(double(r.sockets));
            seconds.push_back((r.*side).connectSeconds);
        }
    return logLogSlope(sockets, seconds);
}

struct Goals {
    bool hsdp = false, split = false, linear = false;
    bool hsdpMeasured = false, splitMeasured = false;
    double splitSeconds = 0;
};

Goals goalsOf(const std::vector<ScaleRow>& rows, double slopeOne, double slopeSplit) {
    Goals g;
    for (const auto& r : rows) {
        g.hsdpMeasured = g.hsdpMeasured || r.world.ranks() == kGoalHsdpRanks;
        g.splitMeasured = g.splitMeasured || r.world.ranks() == kGoalSplitRanks;
        if (r.world.ranks() == kGoalHsdpRanks && r.one.verified()) g.hsdp = true;
        if (r.world.ranks() == kGoalSplitRanks && r.split.verified()) {
            g.splitSeconds = r.split.wallSeconds;
            g.split = g.splitSeconds <= kGoalSplitSeconds;
        }
    }
    // "No worse than linear", with room for the noise of a shared 2-core machine.
    g.linear = !(slopeOne > 1.15) && !(slopeSplit > 1.15);
    return g;
}

std::string slopeText(double slope) {
    if (std::isnan(slope)) return "n/a (fewer than two verified worlds)";
    std::ostringstream out;
    out.precision(2);
    out << std::fixed << slope;
    return out.str();
}

std::string padded(std::string text, size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string goalText(bool measured, bool met) {
    return !measured ? "not measured (raise --max-ranks)" : met ? "yes" : "NO";
}

// Connecting cost per socket: flat along the table when growth is linear.
std::string perThousandSockets(const ScaleRun& run, long sockets) {
    if (!run.verified()) return "";
    std::ostringstream out;
    out.precision(0);
    out << std::fixed << "  " << run.connectSeconds * 1e3 / (double(sockets) / 1000)
        << " ms per 1,000 sockets";
    return out.str();
}

void printText(const std::vector<ScaleRow>& rows, const Options& o, double slopeOne,
               double slopeSplit, const Goals& g) {
    std::cout << "scale: whole `hsdp-inspect run` commands, in one process and split over "
                 "worker processes (open-file limit "
              << (rows.empty() ? -1 : rows.front().limit) << "); sockets: the estimate `run` "
              << "prints, every group in one process\n";
    for (const auto& r : rows)
        std::cout << "  " << r.world.label << ": " << r.world.ranks() << " ranks, about "
                  << r.sockets << " sockets\n"
                  << "    one process   " << padded(scaleRunCell(r.one, o.timeoutSeconds), 36)
                  << perThousandSockets(r.one, r.sockets) << "\n"
                  << "    --procs " << padded(std::to_string(r.procs), 6)
                  << padded(scaleRunCell(r.split, o.timeoutSeconds), 36)
                  << perThousandSockets(r.split, r.sockets) << " (busiest worker " << r.splitSockets
                  << " sockets)\n";
    auto largest = [&](ScaleRun ScaleRow::*side) {
        const ScaleRow* r = largestVerified(rows, side);
        return r ? r->world.label + ", " + std::to_string(r->world.ranks()) + " ranks"
                 : std::string("none");
    };
    std::cout << "  largest verified: one process " << largest(&ScaleRow::one) << "; split "
              << largest(&ScaleRow::split) << "\n"
              << "  connect time over sockets, log-log slope (1 = linear): one process "
              << slopeText(slopeOne) << ", split " << slopeText(slopeSplit) << "\n"
              << "  goals: 2x64 verifies in one process: " << goalText(g.hsdpMeasured, g.hsdp)
              << "\n         1,024-rank 3-D verifies split within " << kGoalSplitSeconds
              << " s: " << goalText(g.splitMeasured, g.split)
              << "\n         connect time no worse than linear (slope <= 1.15): "
              << (g.linear ? "yes" : "NO") << "\n";
}

Json reportJson(const std::vector<ScaleRow>& rows, double slopeOne, double slopeSplit,
                const Goals& g) {
    Json worlds = Json::array();
    for (const auto& r : rows)
        worlds.push_back({{"label", r.world.label},
                          {"mesh", r.world.mesh},
                          {"ranks", r.world.ranks()},
                          {"sockets", r.sockets},
                          {"one_process", runJson(r.one)},
                          {"procs", r.procs},
                          {"split_busiest_sockets", r.splitSockets},
                          {"split", runJson(r.split)}});
    auto slope = [](double s) { return std::isnan(s) ? Json(nullptr) : Json(s); };
    return {{"benchmark", "scale"},
            {"open_file_limit", rows.empty() ? -1 : rows.front().limit},
            {"worlds", worlds},
            {"connect_slope_one_process", slope(slopeOne)},
            {"connect_slope_split", slope(slopeSplit)},
            {"goal_2x64_verifies", g.hsdp},
            {"goal_1024_split_within_600_s", g.split},
            {"goal_connect_linear", g.linear}};
}

}  // namespace

int scaleBenchmark(const std::vector<std::string>& args) {
    Options o;
    try {
        o = parseOptions(args);
    } catch (const std::exception& e) {
        std::cerr << "hsdp-bench scale: " << e.what() << "\n";
        return 2;
    }
    WorkDir dir(o.keepDir, "hsdp-bench-scale");
    std::vector<ScaleRow> rows;
    bool oneRuns = true;
    for (const auto& world : scaleWorlds(o.maxRanks)) {
        rows.push_back(measureWorld(world, o, oneRuns, dir.path()));
        oneRuns = rows.back().one.verified();
    }
    const double slopeOne = connectSlope(rows, &ScaleRow::one);
    const double slopeSplit = connectSlope(rows, &ScaleRow::split);
    const Goals goals = goalsOf(rows, slopeOne, slopeSplit);
    if (o.json)
        std::cout << reportJson(rows, slopeOne, slopeSplit, goals).dump(1) << "\n";
    else
        printText(rows, o, slopeOne, slopeSplit, goals);
    bool allSplitVerified = true;
    for (const auto& r : rows) allSplitVerified = allSplitVerified && r.split.verified();
    return allSplitVerified ? 0 : 1;
}

}  // namespace hsdp::bench
