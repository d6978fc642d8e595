// SPDX-License-Identifier: Apache-2.0
#include "plan/plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "plan/ownership.h"

namespace hsdp {

std::string_view severityName(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            return "info";
    }
    return "?";
}

std::string_view tpKindName(TpKind kind) {
    switch (kind) {
        case TpKind::Identity:
            return "identity";
        case TpKind::AllGather:
            return "all_gather";
        case TpKind::AllReduce:
            return "all_reduce";
        case TpKind::ReduceScatter:
            return "reduce_scatter";
    }
    return "?";
}

std::string_view tpPathName(TpPath path) {
    switch (path) {
        case TpPath::Lowered:
            return "lowered";
        case TpPath::Identity:
            return "identity";
        case TpPath::Fallback:
            return "fallback";
    }
    return "?";
}

std::string_view tpLoweredOpName(TpLoweredOp op) {
    switch (op) {
        case TpLoweredOp::AllGather:
            return "all_gather";
        case TpLoweredOp::AllReduce:
            return "all_reduce";
        case TpLoweredOp::ReduceScatter:
            return "reduce_scatter";
        case TpLoweredOp::AllReduceShard:
            return "all_reduce_shard";
    }
    return "?";
}

std::string_view tpFallbackReasonName(TpFallbackReason reason) {
    switch (reason) {
        case TpFallbackReason::RankOrder:
            return "rank-order";
        case TpFallbackReason::Unsupported:
            return "unsupported";
    }
    return "?";
}

const TpGroupDecision* TpPlan::groupOf(int rank) const {
    for (const auto& group : groups)
        if (std::find(group.meshRanks.begin(), group.meshRanks.end(), rank) !=
            group.meshRanks.end())
            return &group;
    return nullptr;
}

bool Plan::hasErrors() const {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

bool Plan::isRejected(int paramIndex) const {
    return std::find(rejectedParams.begin(), rejectedParams.end(), paramIndex) !=
           rejectedParams.end();
}

Coord Batch::loadCoord(size_t index) const {
    return coordinateAt(static_cast<int64_t>(index), replicateSizes);
}

const Group* Plan::groupOf(int paramIndex) const {
    for (const auto& group : groups) {
        // Group params are kept in index order, so a binary search suffices.
        if (std::binary_search(group.params.begin(), group.params.end(), paramIndex)) return &group;
    }
    return nullptr;
}

void requireSettledPlan(const Plan& plan, const char* who) {
    for (const Group& group : plan.groups)
        if (!group.gatherStrategySettled)
            throw std::invalid_argument(
                std::string(who) + ": group " + std::to_string(group.id) +
                "'s gather strategy is \"auto\" and not yet weighed; "
                "plan the scenario with planScenario (cost/plan_scenario.h), "
                "which settles it on a cluster");
}

}  // namespace hsdp
