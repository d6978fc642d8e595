#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace gloo {
class Context;
namespace rendezvous {
class Store;
}
namespace transport {
class Device;
}
}  // namespace gloo

namespace hsdp {

// Meeting point of one run: one store (each group rendezvouses under a
// PrefixStore named after its sorted rank list) and one TCP device shared by
// every context of this process. One device means one event-loop thread for
// the process, which is plenty and keeps thread counts low. The store is an
// in-memory HashStore when every rank lives here, or the one a split run's
// processes share (ProcessShare::store); the device listens on `hostname`.
class Rendezvous {
public:
    // `iface`, when not empty, replaces `hostname`: the device listens on
    // that network interface's address.
    Rendezvous(std::chrono::milliseconds timeout, std::shared_ptr<gloo::rendezvous::Store> store,
               const std::string& hostname, const std::string& iface = {});
    ~Rendezvous();

    // This rank's context for the group `sortedRanks` (size >= 2). Blocks until
    // every member has called it (Gloo's connectFullMesh).
    std::shared_ptr<gloo::Context> connect(const std::vector<int>& sortedRanks, int globalRank);

private:
    std::chrono::milliseconds timeout_;
    std::shared_ptr<gloo::rendezvous::Store> store_;
    std::shared_ptr<gloo::transport::Device> device_;
};

// Raises the soft RLIMIT_NOFILE to the hard limit (a 64-rank world with its
// mesh groups opens thousands of sockets) and returns the limit now in force.
long raiseFileLimit();

}  // namespace hsdp
