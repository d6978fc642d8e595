// SPDX-License-Identifier: Apache-2.0
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
// PrefixStore named after its sorted rank list) and the TCP devices the
// contexts of this process share: one listening on `hostname`, or on
// loopback (127.0.0.1) for many ranks up to 32 of them on addresses of
// 127.0.0.0/8 (see rendezvous.cpp). Each device has one event-loop thread, which keeps thread
// counts low. The store is an in-memory KeyedStore when every rank lives
// here, or the one a split run's processes share (ProcessShare::store).
class Rendezvous {
public:
    // `iface`, when not empty, replaces `hostname`: the device listens on
    // that network interface's address. `ranksHere`: how many ranks of the
    // run this process runs (a loopback run spreads many over addresses).
    Rendezvous(std::chrono::milliseconds timeout, std::shared_ptr<gloo::rendezvous::Store> store,
               const std::string& hostname, const std::string& iface = {}, int ranksHere = 1);
    ~Rendezvous();

    // This rank's context for the group `sortedRanks` (size >= 2). Blocks until
    // every member has called it (Gloo's connectFullMesh).
    std::shared_ptr<gloo::Context> connect(const std::vector<int>& sortedRanks, int globalRank);

private:
    std::chrono::milliseconds timeout_;
    std::shared_ptr<gloo::rendezvous::Store> store_;
    // One TCP device (one event-loop thread) per listening address; rank r uses
    // devices_[r % size].
    std::vector<std::shared_ptr<gloo::transport::Device>> devices_;
};

// Raises the soft RLIMIT_NOFILE to the hard limit (a 64-rank world with its
// mesh groups opens thousands of sockets) and returns the limit now in force.
long raiseFileLimit();

}  // namespace hsdp
