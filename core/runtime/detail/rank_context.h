// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "runtime/detail/gloo_communicator.h"
#include "runtime/detail/rank_state.h"
#include "runtime/world.h"

namespace hsdp {

class Rendezvous;

// What one rank thread's body sees: a communicator for the world and for each
// declared group it belongs to, all connected before the body starts.
class RankContextImpl final : public RankContext {
public:
    RankContextImpl(RankState& state, int worldSize) : state_(state), worldSize_(worldSize) {}

    // Connects this rank to every group of `groups` (world first, the run's
    // global order) that contains it. Throws RunError naming the group on failure.
    void connect(Rendezvous& rendezvous, const std::vector<std::vector<int>>& groups);

    int rank() const override { return state_.rank(); }
    int worldSize() const override { return worldSize_; }
    Communicator& world() override;
    Communicator& group(const std::vector<int>& ranks) override;
    double nowUs() const override { return state_.run().nowUs(); }
    void recordCompute(std::string_view op, const CollectiveLabel& label, double startUs) override;
    bool tracing() const override { return state_.run().options().trace != nullptr; }

private:
    RankState& state_;
    const int worldSize_;
    std::vector<std::unique_ptr<GlooCommunicator>> communicators_;
    GlooCommunicator* world_ = nullptr;  // null when the run has no world group
    std::map<std::vector<int>, GlooCommunicator*> byRanks_;
};

}  // namespace hsdp
