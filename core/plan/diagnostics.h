// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "plan/plan.h"

namespace hsdp {

// Diagnostic codes. The pinned ones (docs/plan.md §1, §2, §6) must never change
// spelling: tools and tests match on them.
namespace codes {
inline constexpr std::string_view InvalidShardDim = "invalid-shard-dim";
inline constexpr std::string_view UnsupportedPlacement = "unsupported-placement";
inline constexpr std::string_view ReplicaCountIgnored = "replica-count-ignored";
inline constexpr std::string_view ReplicaCountIndivisible = "replica-count-indivisible";
inline constexpr std::string_view UnevenShard = "uneven-shard";
inline constexpr std::string_view NestedShardOrder = "nested-shard-order";
inline constexpr std::string_view StridedShardChunk = "strided-shard-chunk";
inline constexpr std::string_view FrozenParamNoOwner = "frozen-param-no-owner";
inline constexpr std::string_view TpRankOrderFallback = "tp-rank-order-fallback";
// Added by this implementation (docs/plan.md allows more codes).
inline constexpr std::string_view UnknownMesh = "unknown-mesh";
inline constexpr std::string_view PlacementCountMismatch = "placement-count-mismatch";
inline constexpr std::string_view OwnerImbalance = "owner-imbalance";
inline constexpr std::string_view TpNoTpDim = "tp-no-tp-dim";
inline constexpr std::string_view TpInvalidShardDim = "tp-invalid-shard-dim";
inline constexpr std::string_view ShardRankOrder = "shard-rank-order";
inline constexpr std::string_view WorldRanksUnused = "world-ranks-unused";
inline constexpr std::string_view NoParams = "no-params";
inline constexpr std::string_view SplitFactorMismatch = "split-factor-mismatch";
inline constexpr std::string_view StackDimGathered = "stack-dim-gathered";
inline constexpr std::string_view ReplicateDimSharded = "replicate-dim-sharded";
// Where a plan meets a cluster (cost/memory_fit.h): a rank's predicted peak
// memory above the device's. Not the planner's: plan --cluster and the
// studio's prediction add it.
inline constexpr std::string_view OutOfMemory = "out-of-memory";
// The same meeting: a peak that fits but leaves less than kMemoryHeadroom of
// the device for what the step does not count.
inline constexpr std::string_view MemoryTight = "memory-tight";
}  // namespace codes

// Collects one diagnostic per code (the shape the worked examples use): the
// first report of a code fixes its severity, headline and position; later
// reports add their parameter/transition and a detail to the message. Codes
// keep the order of their first report, params and transitions end ascending.
class DiagnosticSink {
public:
    void report(Severity severity, std::string_view code, const std::string& headline,
                const std::string& detail = {}, std::vector<int> params = {},
                std::vector<int> transitions = {});

    bool has(std::string_view code) const;
    // The collected diagnostics, params/transitions sorted and de-duplicated.
    std::vector<Diagnostic> take();

private:
    struct Entry {
        Diagnostic diagnostic;
        std::string headline;
        std::vector<std::string> details;
    };
    std::vector<Entry> entries_;
    std::map<std::string, size_t, std::less<>> position_;
};

}  // namespace hsdp
