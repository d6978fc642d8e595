// SPDX-License-Identifier: Apache-2.0
#include "split_run.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <tuple>

#include "cli_args.h"
#include "distributed/local_workers.h"
#include "distributed/rank_split.h"
#include "distributed/run_join.h"
#include "distributed/share_merge.h"
#include "distributed/store_folder.h"
#include "run_settings.h"
#include "stop_signals.h"

namespace hsdp::cli {

namespace {

std::string selfPath() {
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find this program to start workers: " + ec.message());
    return path.string();
}

bool holdsRank0(const std::vector<int>& ranks) {
    for (int r : ranks)
        if (r == 0) return true;
    return false;
}

std::vector<std::vector<std::string>> workerCommands(const Scenario& scenario,
                                                     const StoreFolder& folder,
                                                     const SplitRequest& request) {
    const std::string self = selfPath();
    const auto shares = splitRanks(scenario, request.procs);
    std::vector<std::vector<std::string>> argvs;
    for (int i = 0; i < request.procs; ++i) {
        std::vector<std::string> argv = {self,
                                         "worker",
                                         folder.path("scenario.json"),
                                         "--store",
                                         folder.dir(),
                                         "--procs",
                                         std::to_string(request.procs),
                                         "--proc",
                                         std::to_string(i)};
        argv.insert(argv.end(), request.workerArgs.begin(), request.workerArgs.end());
        // The worker holding rank 0 shows the progress line, as runPlan's rank 0 does.
        if (holdsRank0(shares[size_t(i)])) argv.push_back("--progress");
        argvs.push_back(std::move(argv));
    }
    return argvs;
}

std::string rangesText(const std::vector<int>& ranks) {
    if (ranks.empty()) return "no ranks";
    std::string text = ranks.size() == 1 ? "rank " : "ranks ";
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        text += (i ? ", " : "") + std::to_string(ranks[i]) +
                (j > i ? ".." + std::to_string(ranks[j]) : "");
        i = j + 1;
    }
    return text;
}

// The shares the workers wrote. Of the workers that wrote none, `lost` names
// the one that ended first on its own (the others were usually taken down
// with it, or killed for hanging after it), else the first killed.
std::vector<ShareOutcome> collectShares(const Scenario& scenario, const StoreFolder& folder,
                                        const std::vector<WorkerExit>& exits, int procs,
                                        std::string& lost) {
    const auto ranks = splitRanks(scenario, procs);
    std::vector<ShareOutcome> shares;
    const WorkerExit* culprit = nullptr;
    for (int i = 0; i < procs; ++i) {
        try {
            shares.push_back(decodeShare(readWhole(folder.sharePath(i))));
        } catch (const std::exception&) {
            const WorkerExit& e = exits[size_t(i)];
            if (!culprit || std::tie(e.hung, e.order) < std::tie(culprit->hung, culprit->order))
                culprit = &e;
        }
    }
    if (culprit)
        lost = "worker process " + std::to_string(culprit->proc) + " (pid " +
               std::to_string(culprit->pid) + ", " + rangesText(ranks[size_t(culprit->proc)]) +
               ") " + culprit->how + " before reporting";
    return shares;
}

// Everything a run left in a folder the user gave (the folder stays).
void emptyFolder(const StoreFolder& folder) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder.dir(), ec))
        std::filesystem::remove_all(entry.path(), ec);
}

}  // namespace

int parseProcs(const std::string& text, const Scenario& scenario, const Plan& plan,
               const RunOptions& options) {
    if (text == "auto") {
        try {
            return autoProcs(scenario, plan, options);
        } catch (const std::runtime_error& error) {
            throw UsageError(std::string("--procs auto: ") + error.what());
        }
    }
    const auto procs = parseInteger("--procs", text, 1);
    if (procs > scenario.worldSize)
        throw UsageError("--procs " + text + " is more processes than the world has ranks (" +
                         std::to_string(scenario.worldSize) + ")");
    return static_cast<int>(procs);
}

SocketEstimate splitEstimate(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                             int procs) {
    return splitSocketEstimate(scenario, plan, options, procs);
}

RunResult runOverWorkers(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                         const SplitRequest& request) {
    const auto started = std::chrono::steady_clock::now();
    // Declared first, so it is over last: a stop signal kills the workers,
    // the folder is removed below, then the signal ends this process.
    StopSignals stopSignals;
    const StoreFolder folder = StoreFolder::createPrivate();
    struct Cleanup {
        const StoreFolder& folder;
        ~Cleanup() { folder.removeAll(); }
    } cleanup{folder};
    writeWhole(folder.path("scenario.json"), request.scenarioText);
    std::vector<WorkerExit> exits;
    {
        LocalWorkers workers;
        workers.start(workerCommands(scenario, folder, request));
        stopSignals.watch(workers.pids());
        // A worker that dies takes its peers' collectives down within the
        // collective timeout; past that (and the wait at the end) it is over.
        exits = workers.wait(options.timeout * 2 + std::chrono::seconds(5));
        stopSignals.unwatch();
    }
    std::string lost;
    const auto shares = collectShares(scenario, folder, exits, request.procs, lost);
    RunResult result = mergeShares(scenario, plan, options, shares, lost);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

int mergeFolder(const ArgParser& parser, const StoreFolder& folder, const Scenario& scenario,
                const Plan& plan, const RunOptions& options, int procs) {
    const auto started = std::chrono::steady_clock::now();
    std::string lost;
    try {
        // The others end within moments of this one, or within the
        // collective timeout when one of them died.
        waitForShares(folder, procs, options.timeout * 3);
    } catch (const std::runtime_error& error) {
        lost = error.what();
    }
    std::vector<ShareOutcome> shares;
    for (int p = 0; p < procs; ++p) try {
            shares.push_back(decodeShare(readWhole(folder.sharePath(p))));
        } catch (const std::exception&) {
        }
    RunResult result = mergeShares(scenario, plan, options, shares, lost);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    emptyFolder(folder);
    return reportRun(parser, options, result, scenario, plan);
}

}  // namespace hsdp::cli
