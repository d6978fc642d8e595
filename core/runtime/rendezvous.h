#pragma once

#include <chrono>
#include <memory>
#include <vector>

namespace gloo {
class Context;
namespace rendezvous {
class HashStore;
}
namespace transport {
class Device;
}
}  // namespace gloo

namespace hsdp {

// Meeting point of one run: one in-memory HashStore (each group rendezvouses
// under a PrefixStore named after its sorted rank list) and one TCP device on
// 127.0.0.1 shared by every context. One device means one event-loop thread
// for the whole run, which is plenty on loopback and keeps thread counts low.
class Rendezvous {
public:
    explicit Rendezvous(std::chrono::milliseconds timeout);
    ~Rendezvous();

    // This rank's context for the group `sortedRanks` (size >= 2). Blocks until
    // every member has called it (Gloo's connectFullMesh).
    std::shared_ptr<gloo::Context> connect(const std::vector<int>& sortedRanks, int globalRank);

private:
    std::chrono::milliseconds timeout_;
    std::unique_ptr<gloo::rendezvous::HashStore> store_;
    std::shared_ptr<gloo::transport::Device> device_;
};

// Raises the soft RLIMIT_NOFILE to the hard limit (a 64-rank world with its
// mesh groups opens thousands of sockets) and returns the limit now in force.
long raiseFileLimit();

}  // namespace hsdp
