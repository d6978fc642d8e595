#include "runtime/world.h"

#include <pthread.h>
#include <signal.h>

#include <barrier>
#include <stdexcept>
#include <string>
#include <thread>

#include "runtime/collective_error.h"
#include "runtime/group_set.h"
#include "runtime/rank_context.h"
#include "runtime/rendezvous.h"
#include "runtime/run_state.h"

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
}

void checkFileBudget(const std::vector<std::vector<int>>& groups) {
    const long limit = raiseFileLimit();
    const long needed = estimateFileDescriptors(groups) + 256;  // + what the process already holds
    if (limit >= 0 && needed > limit)
        throw std::runtime_error("runWorld: about " + std::to_string(needed) +
                                 " sockets needed for " + std::to_string(groups.size()) +
                                 " process groups, but the open-file limit is " +
                                 std::to_string(limit));
}

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

std::unique_ptr<Rendezvous> startRendezvous(std::chrono::milliseconds timeout) {
    struct Guard {
        sigset_t previous;
        Guard() { blockSigpipe(&previous); }
        ~Guard() { pthread_sigmask(SIG_SETMASK, &previous, nullptr); }
    } guard;
    return std::make_unique<Rendezvous>(timeout);
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

struct StartClock {
    RunState* run;
    void operator()() noexcept { run->startClock(); }
};

struct RunSync {
    std::barrier<StartClock> started;  // all contexts connected; completion starts the clock
};

void rankMain(RunState& run, Rendezvous& rendezvous, const std::vector<std::vector<int>>& groups,
              int rank, const std::function<void(RankContext&)>& body, RunSync& sync) {
    blockSigpipe(nullptr);
    RankState state(run, rank);
    RankContextImpl context(state, run.options().worldSize);
    bool ok = guarded(state, [&] { context.connect(rendezvous, groups); });
    if (!ok) state.closeAll();
    sync.started.arrive_and_wait();
    if (ok && run.failedRank() < 0) ok = guarded(state, [&] { body(context); });
    // A failed rank closes its sockets now, so peers blocked on it fail at
    // once; the others when the run is over or has failed (see finishAndWait).
    if (!ok) state.closeAll();
    run.finishAndWait();
    state.closeAll();
}

}  // namespace

void runWorld(const WorldOptions& options, const std::vector<std::vector<int>>& groups,
              const std::function<void(RankContext&)>& body) {
    validate(options);
    const auto allGroups = normalizeGroups(groups, options.worldSize);
    checkFileBudget(allGroups);
    RunState run(options);
    const auto rendezvous = startRendezvous(options.timeout);
    RunSync sync{std::barrier<StartClock>(options.worldSize, StartClock{&run})};
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(options.worldSize));
    for (int rank = 0; rank < options.worldSize; ++rank) {
        try {
            threads.emplace_back(rankMain, std::ref(run), std::ref(*rendezvous),
                                 std::cref(allGroups), rank, std::cref(body), std::ref(sync));
        } catch (const std::system_error& error) {
            // Stand in for the ranks that have no thread so the others can finish.
            run.noteFailure(
                bodyError(rank, std::string("could not start its thread: ") + error.what()));
            for (int missing = rank; missing < options.worldSize; ++missing)
                sync.started.arrive_and_drop();
            break;
        }
    }
    for (auto& thread : threads) thread.join();
    if (auto failure = run.firstFailure()) throw *failure;
}

}  // namespace hsdp
