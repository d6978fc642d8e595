// SPDX-License-Identifier: Apache-2.0
#include "runtime/world.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <barrier>
#include <stdexcept>
#include <string>
#include <thread>

#include "runtime/detail/collective_error.h"
#include "runtime/detail/rank_context.h"
#include "runtime/detail/rendezvous.h"
#include "runtime/detail/run_state.h"
#include "runtime/file_limits.h"
#include "runtime/group_set.h"

namespace hsdp {
namespace {

void validate(const WorldOptions& options) {
    if (options.worldSize < 1)
        throw std::invalid_argument("runWorld: worldSize must be at least 1");
    if (options.timeout.count() <= 0)
        throw std::invalid_argument("runWorld: timeout must be positive");
    if (options.fault && (options.fault->rank < 0 || options.fault->rank >= options.worldSize ||
                          options.fault->collective < 1))
        throw std::invalid_argument(
            "runWorld: fault must name a rank of the world and a collective >= 1");
    if (options.share) {
        if (options.share->ranks.empty())
            throw std::invalid_argument("runWorld: a process share needs ranks");
        for (int r : options.share->ranks)
            if (r < 0 || r >= options.worldSize)
                throw std::invalid_argument("runWorld: the process share names rank " +
                                            std::to_string(r) + ", outside the world");
    }
}

// Files a process holds besides the run's sockets (stdio, libraries, the
// trace or dump being written, Gloo's event loop).
constexpr long kOtherFiles = 256;

std::vector<std::vector<int>> runGroups(const WorldOptions& options,
                                        const std::vector<std::vector<int>>& groups) {
    return normalizeGroups(groups, options.worldSize, options.worldGroup);
}

// Empty: every rank (estimateFileDescriptors' convention).
std::vector<int> localRanksOf(const WorldOptions& options) {
    return options.share ? options.share->ranks : std::vector<int>{};
}

SocketEstimate estimateNormalized(const std::vector<std::vector<int>>& groups,
                                  const std::vector<int>& local) {
    std::vector<int> here = local;
    std::sort(here.begin(), here.end());
    SocketEstimate estimate;
    for (const auto& g : groups)
        estimate.groups +=
            g.size() > 1 && (here.empty() || std::any_of(g.begin(), g.end(), [&](int r) {
                                 return std::binary_search(here.begin(), here.end(), r);
                             }));
    estimate.sockets = estimateFileDescriptors(groups, local) + kOtherFiles;
    estimate.limit = raiseFileLimit();
    return estimate;
}

}  // namespace

SocketEstimate socketEstimate(const WorldOptions& options,
                              const std::vector<std::vector<int>>& groups) {
    validate(options);
    return estimateNormalized(runGroups(options, groups), localRanksOf(options));
}

std::string socketLimitMessage(const SocketEstimate& e) {
    const FileLimits limits = openFileLimits();
    std::string text = "about " + std::to_string(e.sockets) + " sockets needed for " +
                       std::to_string(e.groups) + " process groups, but the open-file limit is " +
                       std::to_string(e.limit);
    const std::string split =
        "split the run over worker processes (hsdp-inspect run --procs auto picks the fewest "
        "that fit)";
    // A soft limit above the hard one cannot be set: suggest it only below.
    if (fitsHardLimit(e.sockets, limits))
        return text + ": raise it (ulimit -n " + std::to_string(e.sockets) + ") or " + split;
    const std::string hard = limits.hard == e.limit
                                 ? ", the hard limit"
                                 : " (hard limit " + std::to_string(limits.hard) + ")";
    return text + hard + ", which only root can raise: " + split;
}

namespace {

// Gloo writes to sockets with writev(2): a write to a peer that just closed
// raises SIGPIPE, whose default action kills the process. Blocked in the
// threads that write (the rank threads and Gloo's loop thread, which inherits
// the mask of the thread creating the device), the write fails with EPIPE,
// which Gloo reports as an IoException like any other closed connection.
void blockSigpipe(sigset_t* previous) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, previous);
}

std::unique_ptr<Rendezvous> startRendezvous(const WorldOptions& options) {
    struct Guard {
        sigset_t previous;
        Guard() { blockSigpipe(&previous); }
        ~Guard() { pthread_sigmask(SIG_SETMASK, &previous, nullptr); }
    } guard;
    const int ranksHere =
        options.share ? static_cast<int>(options.share->ranks.size()) : options.worldSize;
    if (!options.share)
        return std::make_unique<Rendezvous>(options.timeout, nullptr, "127.0.0.1", "", ranksHere);
    const auto connect =
        options.share->connectTimeout.count() > 0 ? options.share->connectTimeout : options.timeout;
    return std::make_unique<Rendezvous>(connect, options.share->store, options.share->hostname,
                                        options.share->iface, ranksHere);
}

// Runs `fn`, turning anything it throws into this rank's noted failure.
template <typename Fn>
bool guarded(RankState& state, Fn&& fn) {
    try {
        fn();
        return true;
    } catch (const RunError& error) {
        if (!state.hasFailed()) state.run().noteFailure(error);  // collectives note their own
    } catch (const std::exception& error) {
        state.run().noteFailure(bodyError(state.rank(), error.what()));
    } catch (...) {
        state.run().noteFailure(bodyError(state.rank(), "unknown exception"));
    }
    return false;
}

// Runs a ProcessShare hook on the one thread completing a barrier; what it
// throws fails the run like a failed collective of the first rank here.
void shareHook(RunState& run, const std::function<void()>& hook, const char* what) noexcept {
    if (!hook) return;
    try {
        hook();
    } catch (const std::exception& error) {
        run.noteFailure(bodyError(run.localRanks().front(), std::string(what) + error.what()));
    }
}

struct StartClock {
    RunState* run;
    void operator()() noexcept {
        if (run->options().share && run->failedRank() < 0)
            shareHook(*run, run->options().share->connected, "waiting for the other processes: ");
        run->startClock();
    }
};

struct FinishShare {
    RunState* run;
    void operator()() noexcept {
        if (run->options().share && run->failedRank() < 0)
            shareHook(*run, run->options().share->finished, "finishing with the other processes: ");
    }
};

struct RunSync {
    std::barrier<StartClock> started;    // all contexts connected; completion starts the clock
    std::barrier<FinishShare> finished;  // every body here over; completion waits for the others
};

void rankMain(RunState& run, Rendezvous& rendezvous, const std::vector<std::vector<int>>& groups,
              int rank, const std::function<void(RankContext&)>& body, RunSync& sync) {
    blockSigpipe(nullptr);
    RankState state(run, rank);
    RankContextImpl context(state, run.options().worldSize);
    bool ok = guarded(state, [&] { context.connect(rendezvous, groups); });
    if (!ok) state.closeAll();
    sync.started.arrive_and_wait();
    // A rank starts its body unless the run already failed; an injected
    // fault stops only its own rank (RunState::failedByInjection).
    if (ok && (run.failedRank() < 0 || run.failedByInjection()))
        ok = guarded(state, [&] { body(context); });
    // A failed rank closes its sockets now, so peers blocked on it fail at
    // once; the others when the run is over or has failed (see finishAndWait).
    if (!ok) state.closeAll();
    run.finishAndWait();
    // After a failure, close now: ranks still blocked on this one must not
    // wait at the barrier below for their timeout.
    if (run.failedRank() >= 0) state.closeAll();
    sync.finished.arrive_and_wait();
    state.closeAll();
}

}  // namespace

double runWorld(const WorldOptions& options, const std::vector<std::vector<int>>& groups,
                const std::function<void(RankContext&)>& body) {
    validate(options);
    const auto allGroups = runGroups(options, groups);
    if (const auto estimate = estimateNormalized(allGroups, localRanksOf(options));
        !estimate.fits())
        throw std::runtime_error("runWorld: " + socketLimitMessage(estimate));
    if (options.share && !options.share->store)
        throw std::invalid_argument("runWorld: a process share needs a store");
    RunState run(options);
    const auto rendezvous = startRendezvous(options);
    const auto& ranks = run.localRanks();
    const auto count = static_cast<std::ptrdiff_t>(ranks.size());
    RunSync sync{std::barrier<StartClock>(count, StartClock{&run}),
                 std::barrier<FinishShare>(count, FinishShare{&run})};
    std::vector<std::thread> threads;
    threads.reserve(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) {
        try {
            threads.emplace_back(rankMain, std::ref(run), std::ref(*rendezvous),
                                 std::cref(allGroups), ranks[i], std::cref(body), std::ref(sync));
        } catch (const std::system_error& error) {
            // Stand in for the ranks that have no thread so the others can finish.
            run.noteFailure(
                bodyError(ranks[i], std::string("could not start its thread: ") + error.what()));
            for (size_t missing = i; missing < ranks.size(); ++missing) {
                sync.started.arrive_and_drop();
                sync.finished.arrive_and_drop();
            }
            break;
        }
    }
    for (auto& thread : threads) thread.join();
    if (auto failure = run.firstFailure()) throw *failure;
    return run.connectSeconds();
}

}  // namespace hsdp
