// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <optional>

#include "cli_args.h"
#include "commands.h"
#include "distributed/rank_split.h"
#include "distributed/run_join.h"
#include "distributed/share_run.h"
#include "distributed/store_folder.h"
#include "export/npy_dump.h"
#include "output_paths.h"
#include "plan/planner.h"
#include "progress_line.h"
#include "run_settings.h"
#include "runtime/allocator_policy.h"
#include "split_run.h"

namespace hsdp::cli {

const char* const kWorkerHelp =
    R"(usage: hsdp-inspect worker SCENARIO --store DIR --procs N --proc I [options]

Runs one share of a run split over N processes: the ranks `run --procs N`
gives process I (the world in mesh order, cut into N consecutive blocks), one
thread each. Every worker given the same SCENARIO, options and N and a
shared store folder DIR (e.g. on NFS, for workers on several hosts) joins
the same run: their process groups meet through Gloo's FileStore in DIR/gloo
and connect over TCP. Process 0 opens the run (writing the scenario's digest);
the others wait for it and refuse a different scenario or options. Each
writes its ranks' reports to DIR/share.I; process 0 with --merge (or
`hsdp-inspect collect DIR`) waits for all and prints the merged result, as
`run` would, then empties DIR. `run --procs` starts its workers this way.

options:
  --store DIR            the folder the processes of the run share
  --procs N, --proc I    how many processes, and which one this is (0..N-1)
  --host ADDR            the address this process's sockets listen on, reachable
                         from the other hosts (default 127.0.0.1)
  --iface NAME           listen on this network interface's address instead
  --fresh                (process 0) empty a store folder an earlier run left
  --merge                (process 0) print the merged result; with --json and
                         --trace FILE as for `run`
  --mode, --timeout, --max-bytes, --max-flops, --inject-fault
                         as for `run`; every process of a run must get the same
  --dump-into DIR        write the .npy files of this share's ranks into DIR (exists)
  --progress             show the progress line (the process holding rank 0)

exit status: 0 the share was written (with --merge: VERIFIED), 1 (--merge)
NOT VERIFIED, 2 bad usage, an unreadable scenario, or a store folder or
scenario digest refused, 3 the share could not be written.
)";

namespace {

struct WorkerArgs {
    ShareSpec spec;
    RunOptions options;
};

WorkerArgs parseWorker(const ArgParser& parser, const Scenario& scenario) {
    WorkerArgs w;
    w.options = parseRunSettings(parser);
    const auto store = parser.value("--store");
    const auto procs = parser.value("--procs");
    const auto proc = parser.value("--proc");
    if (!store || !procs || !proc) throw UsageError("worker needs --store, --procs and --proc");
    w.spec.folder = StoreFolder(*store);
    w.spec.procs = static_cast<int>(parseInteger("--procs", *procs, 1));
    w.spec.proc = static_cast<int>(parseInteger("--proc", *proc, 0));
    if (w.spec.procs > scenario.worldSize || w.spec.proc >= w.spec.procs)
        throw UsageError("--proc " + *proc + " of --procs " + *procs + " does not fit a world of " +
                         std::to_string(scenario.worldSize));
    if (auto host = parser.value("--host")) w.spec.hostname = *host;
    if (auto iface = parser.value("--iface")) w.spec.iface = *iface;
    if ((parser.has("--merge") || parser.has("--fresh")) && w.spec.proc != 0)
        throw UsageError("--merge and --fresh are for process 0");
    return w;
}

}  // namespace

int workerCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--progress")
        .flag("--fresh")
        .flag("--merge")
        .flag("--json")
        .option("--trace")
        .option("--store")
        .option("--procs")
        .option("--proc")
        .option("--host")
        .option("--iface")
        .option("--dump-into");
    declareRunSettings(parser);
    parser.parse(args);
    if (parser.positionals().size() != 1)
        throw UsageError("worker takes exactly one SCENARIO file");
    std::string text;
    std::optional<Scenario> loaded = loadScenario(parser.positionals()[0], text);
    if (!loaded) return 2;
    const Scenario& scenario = *loaded;
    WorkerArgs w = parseWorker(parser, scenario);
    if (auto path = parser.value("--trace")) checkOutputFile("--trace", *path);
    std::optional<Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    const Plan plan = planWithStrategies(scenario, cluster, parser.value("--cluster"));
    try {
        joinRun(w.spec.folder, RunCard{std::move(text), runSettingsArgs(parser), w.spec.procs},
                w.spec.proc, parser.has("--fresh"), w.options.timeout * 10);
    } catch (const std::runtime_error& error) {
        std::cerr << "hsdp-inspect worker " << w.spec.proc << ": " << error.what() << "\n";
        return 2;
    }
    std::optional<NpyDump> dump;
    if (auto dir = parser.value("--dump-into")) w.options.observer = &dump.emplace(*dir);
    useCachingAllocator();
    ProgressLine progress;
    if (parser.has("--progress"))
        w.options.progress = [&](double f, const std::string& what) { progress.update(f, what); };
    const ShareOutcome outcome = runShare(scenario, plan, w.options, w.spec);
    progress.finish();
    try {
        writeWhole(w.spec.folder.sharePath(w.spec.proc), encodeShare(outcome));
    } catch (const std::exception& error) {
        std::cerr << "hsdp-inspect worker " << w.spec.proc << ": " << error.what() << "\n";
        return 3;
    }
    if (!parser.has("--merge")) return 0;
    return mergeFolder(parser, w.spec.folder, scenario, plan, w.options, w.spec.procs);
}

}  // namespace hsdp::cli
