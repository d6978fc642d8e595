#include "runtime/rendezvous.h"

#include <sys/resource.h>

#include <algorithm>

#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/hash_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "runtime/group_set.h"

namespace hsdp {

Rendezvous::Rendezvous(std::chrono::milliseconds timeout,
                       std::shared_ptr<gloo::rendezvous::Store> store, const std::string& hostname,
                       const std::string& iface)
    : timeout_(timeout),
      store_(store ? std::move(store) : std::make_shared<gloo::rendezvous::HashStore>()) {
    gloo::transport::tcp::attr attr;
    if (iface.empty())
        attr.hostname = hostname;
    else
        attr.iface = iface;
    device_ = gloo::transport::tcp::CreateDevice(attr);
}

Rendezvous::~Rendezvous() = default;

std::shared_ptr<gloo::Context> Rendezvous::connect(const std::vector<int>& sortedRanks,
                                                   int globalRank) {
    const auto position =
        std::find(sortedRanks.begin(), sortedRanks.end(), globalRank) - sortedRanks.begin();
    gloo::rendezvous::PrefixStore store("group[" + groupKey(sortedRanks) + "]", *store_);
    auto context = std::make_shared<gloo::rendezvous::Context>(
        static_cast<int>(position), static_cast<int>(sortedRanks.size()));
    context->setTimeout(timeout_);
    context->connectFullMesh(store, device_);
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
