// SPDX-License-Identifier: Apache-2.0
#include "distributed/share_run.h"

#include <chrono>

#include "distributed/detail/locked_file_store.h"
#include "distributed/rank_split.h"
#include "run/run_parts.h"
#include "run/used_groups.h"

namespace hsdp {

namespace {

double epochMicros() {
    return std::chrono::duration<double, std::micro>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// How long a process waits for the others to connect, and for all at the
// start and the end: they may still be preparing or connecting, or running
// their last collectives, each of which has the collective timeout; a
// failure elsewhere ends the barrier waits at once.
std::chrono::milliseconds barrierTimeout(const RunOptions& options) {
    return options.timeout * 10;
}

ProcessShare processShare(const ShareSpec& spec, const std::vector<int>& ranks,
                          const RunOptions& options, double& startEpochUs) {
    ProcessShare share;
    share.ranks = ranks;
    const StoreFolder folder = spec.folder;
    const int procs = spec.procs, proc = spec.proc;
    share.store = std::make_shared<LockedFileStore>(
        folder.glooDir(), barrierTimeout(options), [folder, procs]() -> std::string {
            for (int p = 0; p < procs; ++p)
                if (folder.marked("failed", p))  // this one too: its own ranks stop waiting
                    return "process " + std::to_string(p) + " failed";
            return {};
        });
    share.hostname = spec.hostname;
    share.iface = spec.iface;
    share.connectTimeout = barrierTimeout(options);
    const auto wait = barrierTimeout(options);
    share.connected = [folder, procs, proc, wait, &startEpochUs] {
        folder.mark("connected", proc);
        folder.waitAll("connected", procs, wait);
        startEpochUs = epochMicros();
    };
    share.finished = [folder, procs, proc, wait] {
        folder.mark("finished", proc);
        folder.waitAll("finished", procs, wait);
    };
    share.failed = [folder, proc] {
        try {
            folder.mark("failed", proc);
        } catch (...) {  // the others then learn it from closed connections
        }
    };
    return share;
}

}  // namespace

ShareOutcome runShare(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                      const ShareSpec& spec) {
    ShareOutcome out;
    out.proc = spec.proc;
    out.ranks = splitRanks(scenario, spec.procs).at(size_t(spec.proc));
    RunResult unused;
    ExecEnv env;
    prepareRun(scenario, plan, options, true, env, unused);
    RunSink sink;
    env.sink = &sink;
    TraceRecorder recorder;
    WorldOptions world = runWorldOptions(scenario, options);
    world.trace = &recorder;
    out.startEpochUs = epochMicros();
    world.share = processShare(spec, out.ranks, options, out.startEpochUs);
    try {
        out.connectSeconds = runWorld(world, usedGroups(scenario, plan, options.mode),
                                      [&](RankContext& ctx) { rankBody(ctx, env); });
    } catch (const RunError& error) {
        out.error = error.what();
        out.errorRank = error.rank;
        out.errorEpochUs = error.epochUs;
    } catch (const std::exception& error) {
        out.error = error.what();
        out.errorEpochUs = epochMicros();
        world.share->failed();  // e.g. the open-file limit: the others must not wait for us
    }
    out.cancelled = options.cancel && options.cancel->load();
    out.params = sink.params();
    out.transitions = sink.transitions();
    out.memory = sink.memory();
    out.trace = recorder.take();
    return out;
}

}  // namespace hsdp
