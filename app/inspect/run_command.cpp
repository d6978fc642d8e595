// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>

#include "accuracy/replay_json.h"
#include "cli_args.h"
#include "commands.h"
#include "cost/step_memory_model.h"
#include "distributed/socket_shortfall.h"
#include "export/chrome_trace.h"
#include "export/flight_recorder_export.h"
#include "export/npy_dump.h"
#include "export/prediction_json.h"
#include "export/run_figures.h"
#include "export/run_json.h"
#include "job_check/run_dump.h"
#include "job_record/flight_recorder_writer.h"
#include "output_paths.h"
#include "plan/planner.h"
#include "progress_line.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_settings.h"
#include "run_text.h"
#include "runtime/allocator_policy.h"
#include "split_run.h"

namespace hsdp::cli {

const char* const kRunHelp =
    R"(usage: hsdp-inspect run [options] SCENARIO     (SCENARIO "-": standard input)

Executes the scenario's plan for real: one thread per rank in this process
(or in --procs worker processes), every collective a real Gloo collective
over loopback TCP (fused all-gather,
update broadcast, replicate broadcast, TP transitions), then verifies every
byte: gathered tensors against the truth, each rank's final parameter against
the single-device result, and replica agreement.

options:
  --json                 print the result as hsdp-run/1 JSON
  --mode MODE            corrected (default): the algorithms done right;
                         reference: the reference implementation's algorithms
                         as written, showing where they move the wrong rows
  --trace FILE           write the collectives as Chrome trace-event JSON
                         (open in Perfetto or chrome://tracing)
  --dump DIR             write DIR/rank<r>/{gathered,final}/<param>.npy (float32);
                         DIR must be new (only DIR itself is created) or empty
  --flight-recorder DIR  write DIR/nccl_trace_rank_<r>.json: each rank's
                         collectives as PyTorch's Flight Recorder would have
                         recorded them (JSON dump, version 2.10), at the
                         plan's real sizes (a shrunk run's durations are its
                         own), what `check-job` holds a job against; DIR is
                         created if new (not with --procs)
  --timeout S            seconds each collective may take (default 60)
  --max-bytes SIZE       memory budget, e.g. 2GiB, 512MiB, 1e9 (default 2GiB);
                         larger runs shrink shapes; a budget below the smallest
                         possible run is refused and the minimum named
  --max-flops F          Newton-Schulz work budget; larger runs shrink (default 4e10)
  --inject-fault R:K     make rank R fail at its K-th collective, as a crash
                         would: the others go on until they need it
  --procs N|auto         split the world over N worker processes (ranks in mesh
                         order; Gloo FileStore rendezvous in a private temporary
                         folder, loopback TCP); same output as in one process.
                         auto: the fewest processes that fit the open-file limit
  --cluster NAME|FILE    also predict the run with the cost model on a cluster
                         (a preset: loopback, this kind of machine as `calibrate`
                         measured it, or h100-dgx, a100-dgx, h200-hgx; or an
                         hsdp-cluster/1 file), at the run's own (shrunk) shapes,
                         and print it beside what was measured: the step's
                         makespan and each collective op's median error
                         (--json: step_seconds, predicted_seconds, prediction).
                         options.gather_strategy "auto" is weighed on this
                         cluster (on the loopback preset without --cluster)
  --replay               with --cluster: also replay the run, its own measured
                         durations pushed through the step's dependency graph,
                         and then with one class of durations at a time (the
                         collectives, Newton-Schulz, pack and unpack, the update,
                         each rank's time outside its spans) the model's: how
                         much of the prediction's error each class carries
                         (--json: prediction.replay)
  --                     end of options (for a SCENARIO starting with '-')
  -h, --help             show this help

Verdicts: gather exact|mismatch|not-gathered|error|not-reached, step
exact|mismatch|error|not-reached (not-reached: the run stopped before the
check); parameters the plan rejects are listed as "not run".
Output paths are checked before the run starts; outputs are written whole
(a temporary file renamed into place).
Before connecting, the socket estimate goes to stderr; a run above the
open-file limit (soft and hard) is refused with exit 2, naming the --procs N
that fits, and ulimit -n only when the hard limit allows it. A progress line
follows for runs longer than a second.

exit status: 0 VERIFIED: every check passed and the plan has no error
diagnostics; 1 NOT VERIFIED: a mismatch, a failed or stopped run, or error
diagnostics in the plan (the same rule as `plan`), or the trace could not be
written after the run; 2 the scenario could not be read or bad usage (bad
options, unusable output paths, a budget too small, more sockets than the
open-file limit allows), before anything runs.

docs/run.md (run, verification, hsdp-run/1), docs/trace-format.md (--trace),
docs/job-records.md (--flight-recorder),
docs/glossary.md (owner, reference mode, hazard codes) in the source tree.
)";

namespace {

// shrinkAtFactor at this factor gives every dim its smallest run size.
constexpr int64_t kLargestShrink = int64_t(1) << 40;

RunOptions parseRunOptions(const ArgParser& parser) {
    RunOptions options = parseRunSettings(parser);
    if (auto path = parser.value("--trace")) checkOutputFile("--trace", *path);
    if (auto dir = parser.value("--dump"); dir && !dir->empty()) checkDumpFolder("--dump", *dir);
    if (auto dir = parser.value("--flight-recorder")) {
        if (dir->empty()) throw UsageError("--flight-recorder needs a folder");
        // A worker's share carries no buffer sizes: the dumps need the run in one process.
        if (parser.value("--procs"))
            throw UsageError("--flight-recorder records a run in one process; leave out --procs");
        createDumpFolder("--flight-recorder", *dir);
    }
    return options;
}

// Usage errors that need the scenario and its plan, found before the run.
void checkAgainstScenario(const RunOptions& options, const Scenario& scenario, const Plan& plan) {
    if (options.fault && options.fault->rank >= scenario.worldSize)
        throw UsageError("--inject-fault names rank " + std::to_string(options.fault->rank) +
                         ", but the world has ranks 0.." + std::to_string(scenario.worldSize - 1));
    // The run shrinks until it fits; past the largest shrink nothing can run.
    ShrinkDecision smallest = shrinkAtFactor(scenario, kLargestShrink);
    const int64_t minBytes =
        estimateRunBytes(scenario, plan, smallest.paramShapes, smallest.tpShapes);
    if (options.maxBytes < minBytes)
        throw UsageError("--max-bytes " + std::to_string(options.maxBytes) +
                         " is too small for any run of this scenario: shrunk as far as it goes it "
                         "still needs " +
                         std::to_string(minBytes) + " bytes (" + humanBytes(double(minBytes)) +
                         "); give at least that");
    const double minFlops = estimateRunFlops(scenario, plan, smallest.paramShapes);
    if (options.flopBudget < minFlops)
        throw UsageError("--max-flops " + formatNumber(options.flopBudget) +
                         " is too small for any run of this scenario: shrunk as far as it goes it "
                         "still needs " +
                         formatNumber(minFlops) + " flop; give at least that");
}

// What the dumps say of a shrunk run (to stderr with --json, whose stdout
// is the result): the plan's real collectives, timed by this smaller run.
void noteShrunkDumps(const ArgParser& parser, const RunResult& result, const RunDump& dump) {
    if (!result.shrink || result.shrink->factor <= 1) return;
    (parser.has("--json") ? std::cerr : std::cout)
        << "Flight Recorder dumps: the plan's collectives at its real sizes"
        << (dump.rechunked ? " (its larger broadcasts in more chunks, sharing a run chunk's time)"
                           : "")
        << "; no durations (duration_ms), as a job without TORCH_NCCL_ENABLE_TIMING: this run's "
           "times are of tensors shrunk "
        << result.shrink->factor << "x in every dim\n";
}

// The run's collectives as each rank's Flight Recorder dump, one file per
// rank named as PyTorch names them, at the plan's real sizes; the first
// write error, or "".
std::string writeFlightRecorder(const std::string& dir, const ArgParser& parser,
                                const RunOptions& options, const RunResult& result,
                                const Scenario& scenario, const Plan& plan) {
    FlightRecorderExportOptions exportOptions;
    // The trace counts from the bodies' start; the wall clock is read at the
    // end, after the last collective (docs/job-records.md: approximate).
    double lastEndUs = 0;
    for (const auto& e : result.trace.events) lastEndUs = std::max(lastEndUs, e.endUs);
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    exportOptions.runStartNs = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() -
                               std::llround(lastEndUs * 1000);
    exportOptions.timeoutMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout).count();
    std::vector<FlightRecorderDump> dumps;
    if (result.mode == RunMode::Corrected) {  // the schedule is the corrected step's
        RunDump dump =
            runDumpAtRealShapes(scenario, plan, result.trace, result.paramShapes, result.tpShapes,
                                !result.error.empty(), result.errorRank);
        noteShrunkDumps(parser, result, dump);
        exportOptions.timed = !result.shrink || result.shrink->factor <= 1;
        exportOptions.buffers = std::move(dump.buffers);
        exportOptions.pending = std::move(dump.pending);
        dumps = runFlightRecorderDumps(dump.trace, scenario, result.worldSize, exportOptions);
    } else {  // the reference's collectives, as they ran
        dumps = runFlightRecorderDumps(result.trace, scenario, result.worldSize, exportOptions);
    }
    for (size_t rank = 0; rank < dumps.size(); ++rank) {
        const std::string path = dir + "/nccl_trace_rank_" + std::to_string(rank) + ".json";
        if (auto error = writeFileAtomically(path, writeFlightRecorderJson(dumps[rank]) + "\n");
            !error.empty())
            return path + ": " + error;
    }
    return "";
}

std::string writeTrace(const std::string& path, const RunResult& result, const Scenario& scenario) {
    ChromeTraceOptions options;
    options.worldSize = result.worldSize;
    for (const auto& p : scenario.params) options.paramNames.push_back(p.name);
    return writeFileAtomically(path, traceToChromeJson(result.trace, options).dump() + "\n");
}

// A fault past the rank's last collective cannot fire; say so rather than
// let a verified run look like the failure path was exercised.
void warnIfFaultNeverFired(const RunOptions& options, const RunResult& result) {
    if (!options.fault || !result.error.empty()) return;
    int64_t made = 0;
    for (const auto& e : result.trace.events)
        made += e.rank == options.fault->rank && !isCompute(e);
    std::cerr << "hsdp-inspect: warning: --inject-fault " << options.fault->rank << ":"
              << options.fault->collective << " never fired: rank " << options.fault->rank
              << " made only " << made << " collectives\n";
}

// Before any rank connects: what the run will open, in the progress line's
// form, so a run that fails on the open-file limit was announced.
void printSocketEstimate(const SocketEstimate& e, int procs) {
    std::cerr << "[  0%]   0.0s  preparing: the single-device truth, then " << e.groups
              << " process groups to connect: about " << e.sockets << " sockets"
              << (procs > 1 ? " in the busiest of " + std::to_string(procs) + " worker processes"
                            : "")
              << " (open-file limit "
              << (e.limit < 0 ? std::string("none") : std::to_string(e.limit)) << ")\n";
}

// Too few open files is known before the run: bad usage, with what would fit
// instead (the run used to connect nothing and end NOT VERIFIED).
bool refusedOverFileLimit(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                          const SocketEstimate& estimate, int procs, const FileLimits& started) {
    const auto shortfall = socketShortfall(scenario, plan, options, estimate, procs, started);
    if (shortfall) std::cerr << "hsdp-inspect: " << socketShortfallText(*shortfall) << "\n";
    return shortfall.has_value();
}

}  // namespace

int runCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").flag("--replay").option("--trace").option("--dump").option("--procs");
    parser.option("--flight-recorder");
    declareRunSettings(parser);
    parser.parse(args);
    if (parser.positionals().size() != 1) throw UsageError("run takes exactly one SCENARIO file");
    if (parser.has("--replay") && !parser.value("--cluster"))
        throw UsageError(
            "--replay needs --cluster: it replays the run against that cluster's model");
    RunOptions options = parseRunOptions(parser);

    // Before any estimate raises the soft limit to the hard one.
    const FileLimits started = openFileLimits();
    std::string text;
    std::optional<Scenario> loaded = loadScenario(parser.positionals()[0], text);
    if (!loaded) return 2;
    const Scenario& scenario = *loaded;
    std::optional<Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    Plan plan = planWithStrategies(scenario, cluster, parser.value("--cluster"));
    checkAgainstScenario(options, scenario, plan);
    const int procs =
        parser.value("--procs") ? parseProcs(*parser.value("--procs"), scenario, plan, options) : 0;
    // `--procs auto` that fits one process runs in it.
    const bool split = procs > 1 || (procs == 1 && *parser.value("--procs") != "auto");
    const SocketEstimate estimate = split ? splitEstimate(scenario, plan, options, procs)
                                          : runSocketEstimate(scenario, plan, options);
    if (refusedOverFileLimit(scenario, plan, options, estimate, split ? procs : 1, started))
        return 2;
    printSocketEstimate(estimate, split ? procs : 1);
    std::optional<NpyDump> dump;
    SplitRequest request{procs, std::move(text), runSettingsArgs(parser)};
    if (auto dir = parser.value("--dump"); dir && !dir->empty()) {
        createDumpFolder("--dump", *dir);
        options.observer = &dump.emplace(*dir);
        request.workerArgs.insert(request.workerArgs.end(), {"--dump-into", *dir});
    }
    RunResult result;
    if (split) {
        result = runOverWorkers(scenario, plan, options, request);
    } else {
        useCachingAllocator();  // rank threads free and re-fault whole gathered tensors per batch
        ProgressLine progress;
        options.progress = [&](double f, const std::string& what) { progress.update(f, what); };
        result = runPlan(scenario, plan, options);
        progress.finish();
    }
    noteRealSizeCollectives(scenario, plan, result);
    if (!cluster) return reportRun(parser, options, result, scenario, plan);
    // On the run's own shapes, as the runner shrank them.
    const RunPrediction prediction = predictRun(scenario, plan, *cluster, result.paramShapes,
                                                result.tpShapes, result.trace, result.stepSeconds);
    std::optional<StepReplay> replay;
    if (parser.has("--replay") && result.stepSeconds > 0)
        replay = replayStep(prediction, result.trace, result.rankStepUs);
    return reportRun(parser, options, result, scenario, plan, &prediction,
                     replay ? &*replay : nullptr);
}

int reportRun(const ArgParser& parser, const RunOptions& options, const RunResult& result,
              const Scenario& scenario, const Plan& plan, const RunPrediction* prediction,
              const StepReplay* replay) {
    warnIfFaultNeverFired(options, result);
    // The memory model predicts the corrected step, on the shapes the run used.
    std::optional<std::vector<StepMemory>> memory;
    if (result.mode == RunMode::Corrected && !result.paramShapes.empty())
        memory = predictStepMemory(scenario, plan, result.paramShapes);
    const auto* predictedMemory = memory ? &*memory : nullptr;
    if (parser.has("--json")) {
        auto json = runToJson(result, predictedMemory);
        if (prediction) addPrediction(json, *prediction);
        if (replay) json["prediction"]["replay"] = replayToJson(*replay);
        std::cout << json.dump(1) << "\n";
    } else {
        std::cout << runToText(result) << runMemoryText(result, predictedMemory);
        if (prediction) std::cout << "\n" << predictionToText(*prediction);
        if (replay) std::cout << "\n" << replayToText(*replay);
    }
    std::cout.flush();
    // The verdict is out first: a full disk at the end must not swallow it.
    if (auto path = parser.value("--trace")) {
        if (auto error = writeTrace(*path, result, scenario); !error.empty()) {
            std::cerr << "hsdp-inspect: cannot write the trace to '" << *path << "': " << error
                      << "\n";
            return 1;
        }
    }
    if (auto dir = parser.value("--flight-recorder")) {
        if (auto error = writeFlightRecorder(*dir, parser, options, result, scenario, plan);
            !error.empty()) {
            std::cerr << "hsdp-inspect: cannot write the Flight Recorder dumps: " << error << "\n";
            return 1;
        }
    }
    return result.verified ? 0 : 1;
}

}  // namespace hsdp::cli
