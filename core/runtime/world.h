// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/trace.h"
#include "types/dtype.h"
#include "types/placement.h"

namespace gloo::rendezvous {
class Store;
}

namespace hsdp {

// Rank `rank` throws at its `collective`-th collective (1-based), for teaching
// and for tests of the failure path.
struct FaultSpec {
    int rank = 0;
    int64_t collective = 1;

    bool operator==(const FaultSpec&) const = default;
};

// One process's share of a world split over processes (core/distributed):
// the ranks it runs, and how its contexts meet those of the other processes.
struct ProcessShare {
    std::vector<int> ranks;  // the world ranks this process runs
    // Where every process's contexts rendezvous (e.g. a FileStore in a shared folder).
    std::shared_ptr<gloo::rendezvous::Store> store;
    std::string hostname = "127.0.0.1";  // the address this process's sockets listen on
    std::string iface;                   // or this network interface's, when given
    // How long a context waits for its peers to connect (0: the collective
    // timeout): processes started apart reach their groups apart.
    std::chrono::milliseconds connectTimeout{0};
    // Called on one thread once every rank here has connected, before any
    // body starts: returns when every process has (the run's clocks then
    // start together), throws when another process failed or never came.
    std::function<void()> connected;
    // Called on one thread once every rank here is over in a healthy run:
    // returns when every process is over or one has failed, so no process
    // closes sockets its peers may still read from.
    std::function<void()> finished;
    // Called once, on the first failure noted here, so other processes
    // waiting in connected() or finished() stop waiting. Must not throw.
    std::function<void()> failed;
};

struct WorldOptions {
    int worldSize = 1;
    std::chrono::milliseconds timeout{60000};  // every collective
    std::optional<FaultSpec> fault;
    TraceRecorder* trace = nullptr;             // optional
    const std::atomic<bool>* cancel = nullptr;  // optional; checked between collectives
    // Whether the world itself gets a process group (RankContext::world()).
    // A plan's run never uses it: without it a world of n ranks saves n·(n−1)
    // sockets, the largest share of most runs.
    bool worldGroup = true;
    // A share of a world split over processes; none: every rank runs here.
    std::optional<ProcessShare> share;
};

// What connecting a run's process groups costs in open files, known before
// any rank connects.
struct SocketEstimate {
    int groups = 0;    // process groups with a Gloo context (more than one rank)
    long sockets = 0;  // sockets while connecting, plus what the process already holds
    long limit = -1;   // the open-file limit once raised to the hard limit; -1: none
    bool fits() const { return limit < 0 || sockets <= limit; }
};
// The estimate for runWorld(options, groups, ...). Raises the soft open-file
// limit to the hard one (what runWorld would do anyway).
SocketEstimate socketEstimate(const WorldOptions& options,
                              const std::vector<std::vector<int>>& groups);
// The error runWorld throws for an estimate that does not fit: both figures
// and the fixes that can work (ulimit -n only up to the hard limit; a split).
std::string socketLimitMessage(const SocketEstimate& estimate);

// The error of a failed run: names the rank, the collective, its group and
// its sequence number (what() says all of it).
class RunError : public std::runtime_error {
public:
    RunError(const std::string& message, int rank, std::string op, std::vector<int> groupRanks,
             int64_t seq)
        : std::runtime_error(message),
          rank(rank),
          op(std::move(op)),
          groupRanks(std::move(groupRanks)),
          seq(seq) {}
    int rank;
    std::string op;
    std::vector<int> groupRanks;
    int64_t seq;
    // When the failure was noted (CLOCK_REALTIME microseconds): orders the
    // failures of processes, whose first one is the run's headline.
    double epochUs = 0;
};

// One process group as seen by one rank: a real Gloo context over loopback
// TCP. Buffers are raw bytes; `dtype` matters only for reductions.
class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;  // rank inside the group
    virtual int size() const = 0;
    virtual const std::vector<int>& ranks() const = 0;  // global ranks, group order (ascending)

    // `out` holds size() * bytesPerRank bytes, rank-major.
    virtual void allGather(const void* in, void* out, size_t bytesPerRank,
                           const CollectiveLabel& label) = 0;
    // Variable sizes: `bytesPerRank[i]` from group rank i, concatenated in `out`.
    virtual void allGatherV(const void* in, void* out, const std::vector<size_t>& bytesPerRank,
                            const CollectiveLabel& label) = 0;
    virtual void broadcast(void* buffer, size_t bytes, int rootGroupRank,
                           const CollectiveLabel& label) = 0;
    // In place over `count` elements of `dtype`.
    virtual void allReduce(void* buffer, size_t count, DType dtype, ReduceOp op,
                           const CollectiveLabel& label) = 0;
    // `in` holds size() blocks of `countPerRank` elements; `out` receives the
    // reduction of block rank().
    virtual void reduceScatter(const void* in, void* out, size_t countPerRank, DType dtype,
                               ReduceOp op, const CollectiveLabel& label) = 0;
    // `in` and `out` hold size() blocks of bytesPerRank; block i goes to group rank i.
    virtual void allToAll(const void* in, void* out, size_t bytesPerRank,
                          const CollectiveLabel& label) = 0;
    // Variable blocks: `in` holds sendBytes[i] bytes for group rank i, back to
    // back in group order; `out` receives recvBytes[i] bytes from group rank
    // i, back to back alike. Empty blocks allowed. What rank i sends rank j
    // must be what j expects from i (the caller's plan); sendBytes[rank()] ==
    // recvBytes[rank()] (the block a rank keeps is copied); `in` and `out` do
    // not overlap.
    virtual void allToAllV(const void* in, const std::vector<size_t>& sendBytes, void* out,
                           const std::vector<size_t>& recvBytes, const CollectiveLabel& label) = 0;
    virtual void barrier(const CollectiveLabel& label) = 0;
};

// What a rank thread sees: its rank and its process groups.
class RankContext {
public:
    virtual ~RankContext() = default;
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;
    virtual Communicator& world() = 0;
    // The group with exactly these global ranks (any order given; the group
    // orders them ascending, as a process group does). Must be one declared
    // to runWorld; throws std::invalid_argument otherwise.
    virtual Communicator& group(const std::vector<int>& ranks) = 0;
    // Microseconds since the bodies started: the trace's clock
    // (TraceEvent::startUs), so a body can time its own parts on it.
    virtual double nowUs() const = 0;
    // Records a compute span of this rank from `startUs` (nowUs()) to now in
    // the run's trace (TraceEvent: op "pack" | "unpack" | "newton_schulz" |
    // "update", the label of the collectives it serves); nothing when the run
    // keeps no trace.
    virtual void recordCompute(std::string_view op, const CollectiveLabel& label,
                               double startUs) = 0;
    // Whether recordCompute records anything: callers skip building labels when not.
    virtual bool tracing() const = 0;
};

// Runs `body` on one thread per rank. Every declared group (each a list of
// global ranks) gets one Gloo context per member, created once before the
// bodies start. If any rank fails, every thread is joined, every socket is
// closed and the first failure is rethrown as RunError.
//
// Details of the implementation (core/runtime/*.cpp):
// - every member of a group must make the same call as its n-th collective
//   there (op, sizes, root, dtype); a mismatch is a RunError naming both
//   ranks, raised before any byte moves (Gloo would abort the process);
// - once a rank has failed, the run is over: every rank's next collective
//   throws, bodies not yet started are skipped, and all sockets close at once
//   so ranks blocked in Gloo fail within moments, not at their timeout;
// - the headline error is the first failure noted; the others (peers that
//   saw a closed connection) are consequences. HSDP_RUNTIME_VERBOSE=1 in the
//   environment prints every failure to stderr;
// - a group of one rank has no Gloo context: its collectives are local
//   copies, still counted, sequenced and traced (0 bytes);
// - SIGPIPE is blocked in the rank threads and Gloo's loop thread (a write to
//   a closed peer then fails with EPIPE instead of killing the process);
// - the soft RLIMIT_NOFILE is raised to the hard limit; a run that would need
//   more sockets than that is refused up front (std::runtime_error,
//   socketLimitMessage).
// Invalid options or groups throw std::invalid_argument before any thread starts.
// Returns the seconds from the call until every rank here had connected its
// groups (split: until every process had): what the rendezvous cost.
double runWorld(const WorldOptions& options, const std::vector<std::vector<int>>& groups,
                const std::function<void(RankContext&)>& body);

}  // namespace hsdp
