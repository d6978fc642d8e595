// SPDX-License-Identifier: Apache-2.0
#include "distributed/rank_split.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "run/run_parts.h"
#include "run/used_groups.h"

namespace hsdp {

namespace {

std::vector<int> meshOrder(const Scenario& scenario) {
    std::vector<char> taken(size_t(scenario.worldSize), 0);
    std::vector<int> order;
    auto take = [&](int r) {
        if (r >= 0 && r < scenario.worldSize && !taken[size_t(r)]) {
            taken[size_t(r)] = 1;
            order.push_back(r);
        }
    };
    for (const auto& mesh : scenario.meshes)
        for (int r : mesh.ranks) take(r);
    for (int r = 0; r < scenario.worldSize; ++r) take(r);
    return order;
}

SocketEstimate estimateFor(const Scenario& scenario, const RunOptions& options,
                           const std::vector<std::vector<int>>& groups,
                           const std::vector<int>& ranks) {
    WorldOptions world = runWorldOptions(scenario, options);
    world.share = ProcessShare{};
    world.share->ranks = ranks;
    world.share->store = nullptr;
    return socketEstimate(world, groups);
}

}  // namespace

std::vector<std::vector<int>> splitRanks(const Scenario& scenario, int procs) {
    if (procs < 1 || procs > scenario.worldSize)
        throw std::invalid_argument("cannot split a world of " +
                                    std::to_string(scenario.worldSize) + " ranks over " +
                                    std::to_string(procs) + " processes");
    const std::vector<int> order = meshOrder(scenario);
    std::vector<std::vector<int>> shares(static_cast<size_t>(procs));
    const size_t n = order.size();
    for (size_t p = 0; p < size_t(procs); ++p) {
        const size_t begin = n * p / size_t(procs), end = n * (p + 1) / size_t(procs);
        shares[p].assign(order.begin() + long(begin), order.begin() + long(end));
    }
    return shares;
}

SocketEstimate splitSocketEstimate(const Scenario& scenario, const Plan& plan,
                                   const RunOptions& options, int procs) {
    const auto groups = usedGroups(scenario, plan, options.mode);
    SocketEstimate worst;
    for (const auto& ranks : splitRanks(scenario, procs)) {
        const SocketEstimate e = estimateFor(scenario, options, groups, ranks);
        if (e.sockets > worst.sockets) worst = e;
    }
    return worst;
}

int autoProcs(const Scenario& scenario, const Plan& plan, const RunOptions& options) {
    const SocketEstimate whole = runSocketEstimate(scenario, plan, options);
    if (whole.fits()) return 1;
    // Each process holds about 1/procs of the sockets: start there, grow until it fits.
    int procs = int(std::min<long>(scenario.worldSize, whole.sockets / whole.limit + 1));
    for (; procs <= scenario.worldSize; ++procs)
        if (splitSocketEstimate(scenario, plan, options, procs).fits()) return procs;
    throw std::runtime_error("even one rank per process needs more than the open-file limit (" +
                             std::to_string(whole.limit) + ")");
}

}  // namespace hsdp
