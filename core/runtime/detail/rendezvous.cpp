// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/rendezvous.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "runtime/detail/keyed_store.h"
#include "runtime/group_set.h"

namespace hsdp {

namespace {

// Every Gloo pair binds a listening socket to an ephemeral port of its
// device's address, and the kernel's search for a free port walks the
// sockets already bound there: on one address, connecting grows with the
// square of the sockets (three quarters of a 512-rank run's CPU time was that
// search). A loopback run spreads its ranks over up to this many addresses
// of 127.0.0.0/8, all of them this host, each with its own ports: one address
// per 16 ranks. (Each address is a device with its own event-loop thread,
// whose shutdown takes a while: small runs keep one.)
constexpr int kLoopbackAddresses = 32;
constexpr int kRanksPerAddress = 16;

bool bindable(const std::string& address) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in in{};
    in.sin_family = AF_INET;
    const bool ok = inet_pton(AF_INET, address.c_str(), &in.sin_addr) == 1 &&
                    bind(fd, reinterpret_cast<sockaddr*>(&in), sizeof in) == 0;
    close(fd);
    return ok;
}

std::vector<std::string> listenAddresses(const std::string& hostname, int ranksHere) {
    const int count = std::clamp(ranksHere / kRanksPerAddress, 1, kLoopbackAddresses);
    if (hostname != "127.0.0.1" || count == 1 || !bindable("127.77.1.1")) return {hostname};
    std::vector<std::string> addresses;
    for (int k = 1; k <= count; ++k) addresses.push_back("127.77." + std::to_string(k) + ".1");
    return addresses;
}

}  // namespace

Rendezvous::Rendezvous(std::chrono::milliseconds timeout,
                       std::shared_ptr<gloo::rendezvous::Store> store, const std::string& hostname,
                       const std::string& iface, int ranksHere)
    : timeout_(timeout), store_(store ? std::move(store) : std::make_shared<KeyedStore>()) {
    gloo::transport::tcp::attr attr;
    if (!iface.empty()) {
        attr.iface = iface;
        devices_.push_back(gloo::transport::tcp::CreateDevice(attr));
        return;
    }
    for (const auto& address : listenAddresses(hostname, ranksHere)) {
        attr.hostname = address;
        devices_.push_back(gloo::transport::tcp::CreateDevice(attr));
    }
}

Rendezvous::~Rendezvous() {
    // Each device stops its event-loop thread, which takes a moment: stop
    // them side by side.
    std::vector<std::thread> stopping;
    for (auto& device : devices_)
        if (device.use_count() == 1)
            stopping.emplace_back([d = std::move(device)]() mutable { d.reset(); });
    for (auto& t : stopping) t.join();
}

std::shared_ptr<gloo::Context> Rendezvous::connect(const std::vector<int>& sortedRanks,
                                                   int globalRank) {
    const auto position =
        std::find(sortedRanks.begin(), sortedRanks.end(), globalRank) - sortedRanks.begin();
    gloo::rendezvous::PrefixStore store("group[" + groupKey(sortedRanks) + "]", *store_);
    auto context = std::make_shared<gloo::rendezvous::Context>(
        static_cast<int>(position), static_cast<int>(sortedRanks.size()));
    context->setTimeout(timeout_);
    context->connectFullMesh(store, devices_[size_t(globalRank) % devices_.size()]);
    return context;
}

long raiseFileLimit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur != limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? -1 : static_cast<long>(limit.rlim_cur);
}

}  // namespace hsdp
