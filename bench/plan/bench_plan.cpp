// SPDX-License-Identifier: Apache-2.0
// hsdp-bench plan: the planner against the seeds' algorithm, measured side by
// side in one run. (1) Owner assignment in-process: the heap against the
// seeds' O(params x coords) scan. (2) Whole processes on the same scenario
// files: `hsdp-inspect plan --json` against the project's Python port of the
// seeds writing its plan, over a scaling table. --check keeps only the guard
// point and fails when the C++ planner is less than 5x faster there: a ratio
// measured in one run survives a noisy machine; an absolute time would not.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "plan/ownership.h"
#include "plan_report.h"
#include "plan_scaling.h"
#include "work_dir.h"

namespace hsdp::bench {

const char* const kPlanHelp =
    R"(usage: hsdp-bench plan [--json] [--check] [--keep DIR]
                       [--inspect PATH] [--python PATH] [--port PATH]

Measures the planner against the seeds' algorithm, side by side in one run:
(1) owner assignment in-process, the heap against the seeds' O(params x
coords) scan (20,000 params x 1,024 coords, 5 interleaved rounds, medians;
both must give the same owners and loads); (2) whole processes on the same
scenario files, `hsdp-inspect plan --json` against the project's Python port
of the seeds, over a scaling table (3 interleaved rounds, wall-clock
medians; the port stops at its first point past 60 s), with the ratio and
whether the plans agree.

options:
  --json           print one JSON object instead of text
  --check          only the guard point (4k params x 8,192 ranks); exit 1
                   when the C++ planner is less than 5x faster there (a
                   ratio measured in one run survives a noisy machine)
  --keep DIR       write the scenarios and plans into DIR and keep them
                   (default: a temporary directory, removed afterwards)
  --inspect PATH   the hsdp-inspect to run (default: the one beside hsdp-bench)
  --python PATH    the Python interpreter of the port (default: python3)
  --port PATH      the port's script (default: tests/seed_port/hsdp_seed_plan.py)
  -h, --help       show this help

exit status: 0 no planner failed, the plans agree and so do the owners (with
--check: the ratio holds); 1 otherwise; 2 bad usage.
)";

namespace {

namespace fs = std::filesystem;

constexpr int kParams = 20000;
constexpr int64_t kCoords = 1024;
constexpr int kRounds = 5;
constexpr int kProcessRounds = 3;
constexpr double kGoalRatio = 30;  // at the guard point
// --check fails below it. Since plan --json carries every rank's gather
// traffic the ratio is 10-12x on a quiet 2-core machine (9.9x once in a
// fresh-clone CI run), so 10x failed by chance; a 60x slowdown of the
// planner still drops it far under 5x.
constexpr double kGuardRatio = 5;
constexpr double kPortLimitSeconds = 60;

struct Options {
    bool json = false, check = false;
    std::string keepDir;  // "": a temporary directory, removed afterwards
    PlanTools tools;
};

PlanTools defaultTools() {
    const fs::path bin = fs::read_symlink("/proc/self/exe").parent_path();
    return {(bin / "hsdp-inspect").string(),
            fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3",
            HSDP_SOURCE_DIR "/tests/seed_port/hsdp_seed_plan.py"};
}

// Throws std::invalid_argument on an unknown or incomplete option.
Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    o.tools = defaultTools();
    for (size_t i = 0; i < args.size(); ++i) {
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
            return args[++i];
        };
        if (args[i] == "--json")
            o.json = true;
        else if (args[i] == "--check")
            o.check = true;
        else if (args[i] == "--keep")
            o.keepDir = value();
        else if (args[i] == "--inspect")
            o.tools.inspect = value();
        else if (args[i] == "--python")
            o.tools.python = value();
        else if (args[i] == "--port")
            o.tools.port = value();
        else
            throw std::invalid_argument("unknown option " + args[i]);
    }
    return o;
}

// Parameter sizes drawn from real layer shapes so ties and near-ties occur.
std::vector<OwnerItem> makeItems() {
    const int64_t shapes[] = {4096 * 4096, 1024 * 4096, 14336 * 4096, 4096, 8192 * 8192, 128};
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> pick(0, 5);
    std::vector<OwnerItem> items;
    for (int p = 0; p < kParams; ++p) items.push_back({p, shapes[pick(rng)]});
    return items;
}

Json ownerAssignment(std::ostream& text) {
    auto items = makeItems();
    OwnerAssignment heap, scan;
    auto samples = interleaved(kRounds, {[&] { heap = assignOwners(items, kCoords); },
                                         [&] { scan = assignOwnersByScan(items, kCoords); }});
    bool same = heap.owners == scan.owners && heap.loads == scan.loads;
    double heapS = median(samples[0]), scanS = median(samples[1]);
    text << "owner assignment, " << kParams << " params x " << kCoords << " coords (" << kRounds
         << " interleaved rounds, medians)\n"
         << "  heap  " << heapS * 1e3 << " ms\n  scan  " << scanS * 1e3 << " ms\n"
         << "  heap_vs_scan_speedup  " << scanS / heapS << "x\n"
         << "  identical owners and loads: " << (same ? "yes" : "NO") << "\n";
    return {{"params", kParams},       {"coords", kCoords},
            {"rounds", kRounds},       {"heap_seconds", heapS},
            {"scan_seconds", scanS},   {"heap_vs_scan_speedup", scanS / heapS},
            {"identical_owners", same}};
}

// The table's rows; the port stops at its first point past the time limit.
std::vector<PointTiming> measureScaling(const PlanTools& tools, const std::string& dir) {
    std::vector<PointTiming> rows;
    bool portRuns = true;
    for (const auto& point : scalePoints()) {
        std::cerr << "hsdp-bench plan: " << point.label() << "...\n";
        MeasureOptions options;
        options.rounds = kProcessRounds;
        options.portTimeoutSeconds = kPortLimitSeconds;
        options.runPort = portRuns;
        rows.push_back(measurePoint(point, tools, dir, options));
        portRuns = rows.back().port.ok();
    }
    return rows;
}

// --check: only the guard point; passes when the port is >= kGuardRatio times slower.
int runCheck(const Options& o, const std::string& dir) {
    MeasureOptions options;
    options.rounds = kProcessRounds;
    options.portTimeoutSeconds = 120;  // a limit for hung runs, not a speed goal
    const PointTiming row = measurePoint(guardPoint(), o.tools, dir, options);
    const std::string trouble = problems({row});
    const bool pass = trouble.empty() && row.ratio() >= kGuardRatio;
    if (o.json) {
        Json out = {{"benchmark", "plan.check"},
                    {"point", pointJson(row, 0, 0)},
                    {"min_ratio", kGuardRatio},
                    {"pass", pass}};
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "plan guard at " << guardPoint().label() << " (" << kProcessRounds
                  << " interleaved rounds, wall-clock medians)\n"
                  << "  C++ hsdp-inspect plan --json  "
                  << sideCell(row.cpp, options.portTimeoutSeconds) << "\n"
                  << "  Python port of the seeds      "
                  << sideCell(row.port, options.portTimeoutSeconds) << "\n"
                  << "  plans: " << row.agreement << "\n"
                  << trouble << "  ratio " << fixed(row.ratio(), 1)
                  << "x, required >= " << kGuardRatio << "x: " << (pass ? "PASS" : "FAIL") << "\n";
    }
    return pass ? 0 : 1;
}

}  // namespace

int planBenchmark(const std::vector<std::string>& args) {
    Options o;
    try {
        o = parseOptions(args);
    } catch (const std::invalid_argument& e) {
        std::cerr << "hsdp-bench plan: " << e.what() << "\n";
        return 2;
    }
    WorkDir dir(o.keepDir);
    if (o.check) return runCheck(o, dir.path());
    std::ostringstream text;
    Json owners = ownerAssignment(text);
    const auto rows = measureScaling(o.tools, dir.path());
    Json scaling = scalingReport(rows, {kProcessRounds, kPortLimitSeconds, kGoalRatio}, text);
    const std::string trouble = problems(rows);
    const bool ok = trouble.empty() && owners["identical_owners"].get<bool>();
    if (o.json)
        std::cout << Json{{"benchmark", "plan"},
                          {"owner_assignment", owners},
                          {"planning", scaling},
                          {"ok", ok}}
                         .dump(1)
                  << "\n";
    else
        std::cout << text.str() << trouble;
    return ok ? 0 : 1;
}

}  // namespace hsdp::bench
