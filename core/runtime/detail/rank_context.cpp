// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/rank_context.h"

#include <algorithm>
#include <stdexcept>

#include <gloo/context.h>

#include "runtime/detail/collective_error.h"
#include "runtime/detail/rendezvous.h"
#include "runtime/group_set.h"

namespace hsdp {

void RankContextImpl::connect(Rendezvous& rendezvous, const std::vector<std::vector<int>>& groups) {
    const int self = state_.rank();
    for (const auto& ranks : groups) {
        if (!std::binary_search(ranks.begin(), ranks.end(), self)) continue;
        std::shared_ptr<gloo::Context> context;
        try {
            if (ranks.size() > 1) context = rendezvous.connect(ranks, self);
        } catch (const std::exception& error) {
            throw RunError("rank " + std::to_string(self) + " could not connect group " +
                               groupRanksText(ranks) + ": " + error.what(),
                           self, "connect", ranks, -1);
        }
        communicators_.push_back(
            std::make_unique<GlooCommunicator>(state_, ranks, std::move(context)));
        state_.addCommunicator(communicators_.back().get());
        byRanks_.emplace(ranks, communicators_.back().get());
        if (static_cast<int>(ranks.size()) == worldSize_) world_ = communicators_.back().get();
    }
}

Communicator& RankContextImpl::world() {
    if (!world_)
        throw std::invalid_argument("rank " + std::to_string(state_.rank()) +
                                    ": the run has no world group (WorldOptions::worldGroup)");
    return *world_;
}

Communicator& RankContextImpl::group(const std::vector<int>& ranks) {
    auto sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    const auto it = byRanks_.find(sorted);
    if (it == byRanks_.end())
        throw std::invalid_argument("rank " + std::to_string(state_.rank()) + ": group " +
                                    groupRanksText(sorted) +
                                    " was not declared to runWorld or does not contain this rank");
    return *it->second;
}

void RankContextImpl::recordCompute(std::string_view op, const CollectiveLabel& label,
                                    double startUs) {
    RunState& run = state_.run();
    if (!run.options().trace) return;
    TraceEvent event;
    event.rank = rank();
    event.op = std::string(op);
    event.groupRanks = {rank()};
    event.startUs = startUs;
    event.endUs = run.nowUs();
    event.label = label;
    run.record(std::move(event));
}

}  // namespace hsdp
