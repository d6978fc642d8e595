// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plan/owner_loads.h"
#include "plan/redistribution.h"
#include "types/gather_strategy.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// Plain result types of the planner (docs/plan.md). Views and the runner read
// them; nothing here is recomputed downstream.

struct GroupLayout {
    int tensorNdim = 0;
    std::vector<std::pair<int, int>> shardAxes;  // (mesh dim, normalised tensor dim)
    std::vector<int> replicateMeshDims;
    bool isLast2dSharded = false;
};

struct CoordLoad {
    Coord coord;
    int64_t numel = 0;
};

struct ShardCompute {
    Coord replicateCoord;
    std::map<int, Coord> computeCoord;  // param index -> shard coordinate
};

struct Batch {
    std::vector<int> params;  // batch order
    int64_t numel = 0;
    std::vector<int64_t> replicateSizes;  // reduced by the replica count
    bool isShard = false;                 // gathered
    std::map<int, Coord> owner;           // param index -> replicate coordinate
    // Numel owned by every replicate coordinate, lexicographic: entry i is
    // coordinate loadCoord(i); stored up to the last loaded coordinate, as a
    // batch at 131,072 ranks has 16,384 coordinates and a plan hundreds of batches.
    OwnerLoads loads;
    // Gathered batches only; the replicate coordinates that own a param, in
    // coordinate order (one that owns none computes nothing and is left out:
    // at 131,072 ranks a batch has 16,384 of them, most owning nothing).
    std::vector<ShardCompute> shardCompute;

    Coord loadCoord(size_t index) const;  // coordinateAt(index, replicateSizes)
};

struct Group {
    int id = 0;
    std::string mesh;  // name of the first mesh that created the group
    std::vector<int64_t> meshShape;
    std::vector<int> meshRanks;
    std::vector<int> replicateMeshDims;
    std::vector<int> shardMeshDims;
    GroupLayout layout;
    std::vector<int> params;  // index order
    std::vector<Batch> batches;
    // How its gathered batches reach their computing ranks and the update comes
    // back (types/gather_strategy.h); all-gather for a group that gathers nothing.
    GatherStrategy gatherStrategy = GatherStrategy::AllGather;
    // The option asked for it, or "auto" weighed both (chooseGatherStrategies).
    bool gatherStrategyAuto = false;
    // False while "auto" is not yet weighed: makePlan alone leaves it so, and
    // runPlan and costPlan refuse the plan (planScenario settles it).
    bool gatherStrategySettled = true;
    std::string gatherStrategyWhy;
};

struct ScheduleEntry {
    int group = 0;
    int batch = 0;
};

// What one rank owns (the reference's select_owned_records) and the work
// that follows from it (plan/rank_work.h). `ownedNumel` sums whole params
// over a whole owning shard group, so it is not what the rank stores or
// computes: those are the three figures below.
struct RankOwnership {
    int rank = 0;
    std::vector<int> owned;     // ascending param indices
    int64_t ownedNumel = 0;     // global numel of owned params
    int64_t heldNumel = 0;      // elements of the shards it stores, every param it holds
    int64_t gatheredNumel = 0;  // elements it receives in fused all-gathers
    int64_t computedNumel = 0;  // Newton–Schulz elements it runs itself
    std::vector<int> computed;  // ascending params it runs Newton–Schulz on
    // Trainable AdamW params it holds (ascending) and their local elements,
    // which it updates itself, elementwise (also in heldNumel).
    std::vector<int> adamw;
    int64_t adamwNumel = 0;
};

// The reference's classification of a transition (classify_tp_transition).
enum class TpKind { Identity, AllGather, AllReduce, ReduceScatter };
// What a TP group does: the lowered collective, nothing, or the generic redistribution.
enum class TpPath { Lowered, Identity, Fallback };
// The collective a lowered group runs (reduce_scatter becomes all_reduce_shard on gloo).
enum class TpLoweredOp { AllGather, AllReduce, ReduceScatter, AllReduceShard };
enum class TpFallbackReason { RankOrder, Unsupported };

std::string_view tpKindName(TpKind kind);  // identity | all_gather | all_reduce | reduce_scatter
std::string_view tpPathName(TpPath path);  // lowered | identity | fallback
// all_gather | all_reduce | reduce_scatter | all_reduce_shard
std::string_view tpLoweredOpName(TpLoweredOp op);
std::string_view tpFallbackReasonName(TpFallbackReason reason);  // rank-order | unsupported

struct TpClassification {
    TpKind kind = TpKind::Identity;
    std::optional<int> tensorDim;
    std::optional<ReduceOp> reduceOp;
};

struct TpGroupDecision {
    std::vector<int> meshRanks;              // ranks along tp, mesh order
    TpPath path = TpPath::Fallback;          // the reference's decision for this group
    std::optional<TpLoweredOp> op;           // lowered only
    std::optional<TpFallbackReason> reason;  // fallback only
    // What the run does: `path`, except that when some groups fall back and
    // the fallback spans mesh dims other than tp, every group runs the
    // fallback (`widened`), or the groups would wait on each other.
    TpPath runs = TpPath::Fallback;
    std::vector<RedistributionStep> steps;  // the steps `runs` takes (identity: none)
};

struct TpPlan {
    int index = 0;
    std::string name;
    std::optional<TpClassification> classification;
    std::optional<int> tpMeshDim;  // nullopt: the mesh has no tp dim (no TP path)
    std::vector<TpGroupDecision> groups;
    // The generic redistribution src -> dst: what a group on the fallback runs,
    // and what every rank of the mesh runs when it has no tp dim.
    std::vector<RedistributionStep> fallbackSteps;

    bool widened(const TpGroupDecision& group) const { return group.runs != group.path; }
    // The group holding `rank`, or nullptr (no tp dim, or not on the mesh).
    const TpGroupDecision* groupOf(int rank) const;
};

enum class Severity { Error, Warning, Info };
std::string_view severityName(Severity severity);

struct Diagnostic {
    Severity severity = Severity::Info;
    std::string code;
    std::string message;
    std::vector<int> params;
    std::vector<int> transitions;
};

struct Plan {
    std::string scenarioName;
    int worldSize = 0;
    std::optional<int64_t> effectiveReplicaCount;
    int64_t alignmentBytes = 512;
    std::vector<int> noCommParams;
    std::vector<int> rejectedParams;
    // Params with optimizer "adamw" (not rejected), ascending: no group, owner,
    // gather or Newton–Schulz; each rank updates its own shard.
    std::vector<int> adamwParams;
    std::vector<Group> groups;
    std::vector<ScheduleEntry> schedule;
    std::vector<RankOwnership> ranks;  // every rank of the world
    std::vector<TpPlan> tpTransitions;
    std::vector<Diagnostic> diagnostics;

    bool hasErrors() const;
    // Whether the planner rejected `paramIndex` (docs/plan.md §1 errors): it is never run.
    bool isRejected(int paramIndex) const;
    // The group holding `paramIndex`, or nullptr (no-comm, AdamW or rejected).
    const Group* groupOf(int paramIndex) const;
};

// Throws std::invalid_argument naming `who` and the first group whose
// "auto" gather strategy is not yet settled (planScenario settles it): a
// plan run or costed as it stands would gather all-gather without a word.
void requireSettledPlan(const Plan& plan, const char* who);

}  // namespace hsdp
