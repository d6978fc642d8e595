#include <iostream>
#include <optional>

#include "cli_args.h"
#include "commands.h"
#include "distributed/rank_split.h"
#include "distributed/share_run.h"
#include "distributed/store_folder.h"
#include "export/npy_dump.h"
#include "plan/planner.h"
#include "progress_line.h"
#include "run_settings.h"
#include "runtime/allocator_policy.h"

namespace hsdp::cli {

const char* const kWorkerHelp =
    R"(usage: hsdp-inspect worker SCENARIO --store DIR --procs N --proc I [options]

Runs one share of a run split over N processes: the ranks `run --procs N`
gives process I (the world in mesh order, cut into N consecutive blocks), one
thread each. The process groups meet those of the other processes through
Gloo's FileStore in DIR/gloo and connect over TCP. The share's reports are
written to DIR/share.I for the process that merges them. `run --procs`
starts its workers this way; they are not meant to be started by hand yet.

options:
  --store DIR            the folder the processes of the run share
  --procs N, --proc I    how many processes, and which one this is (0..N-1)
  --host ADDR            the address this process's sockets listen on (default 127.0.0.1)
  --mode, --timeout, --max-bytes, --max-flops, --inject-fault
                         as for `run`; every process of a run must get the same
  --dump-into DIR        write the .npy files of this share's ranks into DIR (exists)
  --progress             show the progress line (the process holding rank 0)

exit status: 0 the share was written (whatever the run's verdict), 2 bad
usage or an unreadable scenario, 3 the share could not be written.
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
    return w;
}

}  // namespace

int workerCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--progress")
        .option("--store")
        .option("--procs")
        .option("--proc")
        .option("--host")
        .option("--dump-into");
    declareRunSettings(parser);
    parser.parse(args);
    if (parser.positionals().size() != 1)
        throw UsageError("worker takes exactly one SCENARIO file");
    std::optional<Scenario> loaded = loadScenario(parser.positionals()[0]);
    if (!loaded) return 2;
    const Scenario& scenario = *loaded;
    WorkerArgs w = parseWorker(parser, scenario);
    const Plan plan = makePlan(scenario);
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
    return 0;
}

}  // namespace hsdp::cli
