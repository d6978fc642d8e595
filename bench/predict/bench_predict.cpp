// SPDX-License-Identifier: Apache-2.0
// hsdp-bench predict: the cost model against this machine. Every sample and
// a set of generated scenarios run for real (one thread per rank, Gloo over
// loopback), each held against the prediction of the loopback cluster
// (resources/clusters/loopback.json, what `hsdp-inspect calibrate` measured)
// at the run's own shapes, measured and predicted in the same process.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "accuracy/run_prediction.h"
#include "accuracy/step_replay.h"
#include "bench_common.h"
#include "calibrate/calibrate.h"
#include "cluster/reader.h"
#include "cost/plan_scenario.h"
#include "plan/planner.h"
#include "predict_scenarios.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "runtime/allocator_policy.h"
#include "scenario/reader.h"

namespace hsdp::bench {

const char* const kPredictHelp =
    R"(usage: hsdp-bench predict [--json] [--cluster NAME|FILE | --calibrate] [--repeat N]
                          [--check] [--only TEXT]

Proves the cost model against this machine: runs every samples/*.json and 12
generated 2-D HSDP scenarios (world sizes 2..16, pure sharding, pure
replication and both, 4..32 params, 64x64 .. 1024x256 matrices, bf16 and f32)
for real, as `hsdp-inspect run` does (one thread per rank, Gloo over loopback
TCP, shrunk as run shrinks), and holds each run against the cost model's
prediction on the cluster (default loopback: this kind of machine as
`hsdp-inspect calibrate` measured it) at the run's own shapes, measured and
predicted in the same process:

  makespan   the optimizer step's measured makespan vs predicted_seconds;
  collective each collective's measured time (last member's arrival to the
             last member's end, on the trace's clock) vs its span in the
             predicted timeline: the median |error| per scenario, per op over
             every scenario, and over every collective of every scenario;
  compute    each compute span (pack, unpack, newton_schulz, update) vs its
             predicted duration: per kind the median of the scenarios'
             median |error| and the summed time predicted / measured (above
             1: the model prices the kind slower than it ran).

  replay     the run's own durations (each collective, each compute span,
             each rank's time outside its spans) pushed through the step's
             dependency graph: its makespan against the measured one proves
             the graph; then one class of durations at a time the model's,
             and the error each class carries (accuracy/step_replay.h).

Errors are |predicted - measured| / measured. Goals: the median scenario's
replay within 5 %, the worst within 10 %; the median scenario's makespan
within 15 %, the worst within 30 %, the per-collective median within 25 %;
each printed met or not met. With --repeat N each scenario runs N
times, the run with the median makespan is kept, and the spread of the N
measured makespans (largest / smallest - 1) is printed: the noise floor of
the measurement itself. The machine's load average is printed before and
after: a loaded machine measures slower than the calibration did, which
--calibrate avoids by measuring the machine first (hsdp-inspect calibrate, in
this process, about 10 s) and predicting on that.

options:
  --json               one JSON object instead of text
  --cluster NAME|FILE  the cluster to predict on (default loopback)
  --calibrate          calibrate this machine now and predict on the result
  --repeat N           runs per scenario (default 1)
  --only TEXT          only the scenarios whose label contains TEXT
  --check              exit 1 when a goal is not met
  -h, --help           show this help

exit status: 0 every scenario ran (and with --check every goal met); 1 a run
failed or, with --check, a goal was not met; 2 bad usage.
)";

namespace {

using Json = nlohmann::ordered_json;

struct Row {
    std::string label;
    int world = 0;
    int64_t shrink = 1;
    double spread = 0;  // largest / smallest measured makespan - 1 (--repeat)
    RunPrediction prediction;
    StepReplay replay;  // the same run replayed (accuracy/step_replay.h)
    std::string error;
};

std::string loadText() {
    double load[3];
    if (getloadavg(load, 3) != 3) return "unknown";
    char text[64];
    std::snprintf(text, sizeof text, "%.2f %.2f %.2f", load[0], load[1], load[2]);
    return text;
}

std::string pct(double f) {
    if (!std::isfinite(f)) return "inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * f);
    return text;
}

Row runOne(const PredictScenario& s, const Cluster& cluster, int repeat) {
    Row row;
    row.label = s.label;
    try {
        const Scenario scenario = s.path.empty() ? readScenario(s.json) : readScenarioFile(s.path);
        const Plan plan = planScenario(scenario);
        row.world = scenario.worldSize;
        RunOptions options;
        const ShrinkDecision shapes =
            decideShrink(scenario, plan, options.maxBytes, options.flopBudget);
        row.shrink = shapes.info ? shapes.info->factor : 1;
        std::vector<std::pair<RunPrediction, StepReplay>> runs;
        for (int i = 0; i < repeat; ++i) {
            const RunResult result = runPlan(scenario, plan, options);
            if (!result.error.empty()) {
                row.error = result.error;
                return row;
            }
            RunPrediction prediction =
                predictRun(scenario, plan, cluster, shapes.paramShapes, shapes.tpShapes,
                           result.trace, result.stepSeconds);
            StepReplay replay = replayStep(prediction, result.trace, result.rankStepUs);
            runs.emplace_back(std::move(prediction), std::move(replay));
        }
        std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
            return a.first.measuredSeconds < b.first.measuredSeconds;
        });
        std::tie(row.prediction, row.replay) = runs[runs.size() / 2];
        if (runs.front().first.measuredSeconds > 0)
            row.spread = runs.back().first.measuredSeconds / runs.front().first.measuredSeconds - 1;
        if (!row.prediction.mismatches.empty()) row.error = row.prediction.mismatches.front();
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    return row;
}

}  // namespace

int predictBenchmark(const std::vector<std::string>& args) {
    bool json = false, check = false, calibrateFirst = false;
    std::string clusterName = "loopback", only;
    int repeat = 1;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                std::cerr << "hsdp-bench predict: " << a << " needs a value\n";
                std::exit(2);
            }
            return args[++i];
        };
        if (a == "--json")
            json = true;
        else if (a == "--check")
            check = true;
        else if (a == "--calibrate")
            calibrateFirst = true;
        else if (a == "--cluster")
            clusterName = next();
        else if (a == "--only")
            only = next();
        else if (a == "--repeat") {
            repeat = std::atoi(next().c_str());
            if (repeat < 1) {
                std::cerr << "hsdp-bench predict: --repeat expects an integer >= 1\n";
                return 2;
            }
        } else {
            std::cerr << "hsdp-bench predict: unknown option '" << a << "' (see --help)\n";
            return 2;
        }
    }
    Cluster cluster;
    try {
        cluster = resolveCluster(clusterName);
    } catch (const std::exception& e) {
        std::cerr << "hsdp-bench predict: --cluster: " << e.what() << "\n";
        return 2;
    }
    if (calibrateFirst) {
        CalibrationOptions options;
        options.name = "calibrated-now";
        options.progress = [](const std::string& line) {
            std::cerr << "calibrate: " << line << "\n";
        };
        cluster = calibrate(options).cluster;
    }
    useCachingAllocator();  // as hsdp-inspect run does
    const std::string loadBefore = loadText();
    std::vector<Row> rows;
    for (const auto& s : predictScenarios(HSDP_SOURCE_DIR "/samples")) {
        if (!only.empty() && s.label.find(only) == std::string::npos) continue;
        std::cerr << "predict: " << s.label << " ...\n";
        rows.push_back(runOne(s, cluster, repeat));
    }
    const std::string loadAfter = loadText();

    std::vector<double> makespanErrors, collectiveErrors, spreads;
    std::map<CollectiveOp, std::vector<double>> opErrors;
    // Per compute kind: each scenario's median |error| of its spans, and the
    // spans' time summed on both sides (which way the model errs).
    struct KindErrors {
        std::vector<double> scenarioMedians;
        int spans = 0;
        double measured = 0, predicted = 0;
    };
    std::map<WorkKind, KindErrors> kindErrors;
    // The replays: each scenario's |replay error|, and per duration class the
    // error it carries (signed: + makes the step longer than it ran).
    std::vector<double> replayErrors;
    std::map<DurationClass, std::vector<double>> carried;
    bool failed = false;
    for (const auto& r : rows) {
        if (!r.error.empty()) {
            failed = true;
            continue;
        }
        if (r.prediction.makespanRelError) makespanErrors.push_back(*r.prediction.makespanRelError);
        spreads.push_back(r.spread);
        if (r.replay.made() && r.replay.measuredSeconds > 0) {
            replayErrors.push_back(std::abs(r.replay.replayError()));
            for (const ClassSubstitution& c : r.replay.classes)
                carried[c.durations].push_back(r.replay.carriedError(c));
        }
        for (const auto& c : r.prediction.collectives) {
            const double e = relativeError(c.measuredSeconds, c.predictedSeconds);
            collectiveErrors.push_back(e);
            opErrors[c.op].push_back(e);
        }
        for (const auto& k : r.prediction.compute) {
            KindErrors& kind = kindErrors[k.kind];
            kind.scenarioMedians.push_back(k.medianAbsRelError);
            kind.spans += k.spans;
            kind.measured += k.measuredSeconds;
            kind.predicted += k.predictedSeconds;
        }
    }
    const double medianMakespan = medianOf(makespanErrors);
    const double worstMakespan =
        makespanErrors.empty() ? 0
                               : *std::max_element(makespanErrors.begin(), makespanErrors.end());
    const double collectiveMedian = medianOf(collectiveErrors);
    struct Goal {
        const char* what;
        double value, limit;
    };
    const double medianReplay = medianOf(replayErrors);
    const double worstReplay =
        replayErrors.empty() ? 1 : *std::max_element(replayErrors.begin(), replayErrors.end());
    const Goal goals[] = {{"median scenario's replay error", medianReplay, 0.05},
                          {"worst scenario's replay error", worstReplay, 0.10},
                          {"median scenario's makespan error", medianMakespan, 0.15},
                          {"worst scenario's makespan error", worstMakespan, 0.30},
                          {"per-collective median error", collectiveMedian, 0.25}};
    bool allMet = !rows.empty() && !failed;
    for (const auto& g : goals) allMet = allMet && g.value <= g.limit;

    if (json) {
        Json out;
        out["benchmark"] = "predict";
        out["cluster"] = cluster.name;
        out["load_average_before"] = loadBefore;
        out["load_average_after"] = loadAfter;
        Json scenarios = Json::array();
        for (const auto& r : rows) {
            Json s;
            s["label"] = r.label;
            s["world"] = r.world;
            s["shrink"] = r.shrink;
            if (!r.error.empty()) {
                s["error"] = r.error;
            } else {
                s["measured_step_seconds"] = r.prediction.measuredSeconds;
                s["predicted_seconds"] = r.prediction.predictedSeconds;
                s["makespan_error"] = r.prediction.makespanRelError.value_or(0);
                s["collectives"] = r.prediction.collectives.size();
                s["collective_median_error"] = r.prediction.collectiveMedianAbsRelError;
                if (r.replay.made()) {
                    s["replayed_seconds"] = r.replay.replayedSeconds;
                    s["replay_error"] = r.replay.replayError();
                    Json classes = Json::object();
                    for (const ClassSubstitution& c : r.replay.classes)
                        classes[std::string(durationClassName(c.durations))] =
                            r.replay.carriedError(c);
                    s["carried_error"] = classes;
                }
                if (repeat > 1) s["measured_spread"] = r.spread;
            }
            scenarios.push_back(s);
        }
        out["scenarios"] = scenarios;
        Json ops = Json::object();
        for (const auto& [op, e] : opErrors)
            ops[std::string(traceNameOf(op))] = {{"collectives", e.size()},
                                                 {"median_error", medianOf(e)}};
        out["ops"] = ops;
        Json compute = Json::object();
        for (const auto& [kind, k] : kindErrors)
            compute[std::string(workKindName(kind))] = {
                {"spans", k.spans},
                {"median_error", medianOf(k.scenarioMedians)},
                {"measured_seconds", k.measured},
                {"predicted_seconds", k.predicted}};
        out["compute"] = compute;
        Json classes = Json::object();
        for (const auto& [c, e] : carried)
            classes[std::string(durationClassName(c))] = {{"median_carried_error", medianOf(e)}};
        out["replay_classes"] = classes;
        Json g = Json::array();
        for (const auto& goal : goals)
            g.push_back({{"goal", goal.what},
                         {"value", goal.value},
                         {"limit", goal.limit},
                         {"met", goal.value <= goal.limit}});
        out["goals"] = g;
        out["all_met"] = allMet;
        out["repeat"] = repeat;
        if (repeat > 1) out["median_measured_spread"] = medianOf(spreads);
        std::cout << out.dump(1) << "\n";
    } else {
        std::printf("hsdp-bench predict: measured runs vs the cost model on %s (%s)\n",
                    cluster.name.c_str(),
                    calibrateFirst ? "calibrated in this run" : clusterName.c_str());
        std::printf("load average before: %s, after: %s\n\n", loadBefore.c_str(),
                    loadAfter.c_str());
        std::printf("%-40s %5s %6s %11s %11s %9s %6s %9s %8s %9s\n", "scenario", "ranks", "shrink",
                    "measured", "predicted", "makespan", "coll.", "coll.", "measured", "replay");
        std::printf("%-40s %5s %6s %11s %11s %9s %6s %9s %8s %9s\n", "", "", "", "step (s)",
                    "step (s)", "error", "timed", "median", "spread", "error");
        for (const auto& r : rows) {
            if (!r.error.empty()) {
                std::printf("%-40s %5d  FAILED: %s\n", r.label.c_str(), r.world, r.error.c_str());
                continue;
            }
            const auto& p = r.prediction;
            if (std::getenv("HSDP_PREDICT_VERBOSE"))
                for (const auto& c : p.collectives) {
                    const auto& sc = p.cost.schedule.collectives[size_t(c.collective)];
                    std::printf("    %-10s n=%d %9lld B  measured %9.1f us  predicted %9.1f us\n",
                                std::string(traceNameOf(c.op)).c_str(), c.groupSize,
                                static_cast<long long>(sc.sizeBytes), c.measuredSeconds * 1e6,
                                c.predictedSeconds * 1e6);
                }
            std::printf("%-40s %5d %6lld %11.4f %11.4f %9s %6zu %9s %8s %9s\n", r.label.c_str(),
                        r.world, static_cast<long long>(r.shrink), p.measuredSeconds,
                        p.predictedSeconds, pct(p.makespanRelError.value_or(0)).c_str(),
                        p.collectives.size(), pct(p.collectiveMedianAbsRelError).c_str(),
                        repeat > 1 ? pct(r.spread).c_str() : "-",
                        r.replay.made() ? pct(r.replay.replayError()).c_str() : "-");
        }
        std::printf("\nper op, over every scenario (median |error|):\n");
        for (const auto& [op, e] : opErrors)
            std::printf("  %-14s %6zu collectives  %s\n", std::string(traceNameOf(op)).c_str(),
                        e.size(), pct(medianOf(e)).c_str());
        std::printf(
            "\nper compute kind, over every scenario (median of each scenario's median "
            "|error|; summed span time, predicted / measured):\n");
        for (const auto& [kind, k] : kindErrors)
            std::printf("  %-14s %6d spans        %s   predicted / measured %.2f\n",
                        std::string(workKindName(kind)).c_str(), k.spans,
                        pct(medianOf(k.scenarioMedians)).c_str(),
                        k.measured > 0 ? k.predicted / k.measured : 0.0);
        std::printf(
            "\nreplay, one class of durations at a time the model's (median over the scenarios "
            "of (makespan with it modelled - replayed) / measured; + the model makes the step "
            "longer):\n");
        for (const auto& [c, e] : carried)
            std::printf("  %-14s %s\n", std::string(durationClassName(c)).c_str(),
                        pct(medianOf(e)).c_str());
        std::printf("\ngoals:\n");
        for (const auto& g : goals)
            std::printf("  %-34s %7s (goal <= %2.0f%%): %s\n", g.what, pct(g.value).c_str(),
                        100 * g.limit, g.value <= g.limit ? "met" : "NOT MET");
        if (failed) std::printf("  some scenarios failed to run: NOT MET\n");
        if (repeat > 1)
            std::printf(
                "\nthe measurement's own noise: median spread of %d runs of a scenario "
                "(largest / smallest makespan - 1): %s\n",
                repeat, pct(medianOf(spreads)).c_str());
    }
    if (failed) return 1;
    return check && !allMet ? 1 : 0;
}

}  // namespace hsdp::bench
