// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// What changed between two plans: plan A ("before") of scenario A and plan B
// ("after") of scenario B. A plain value: the CLI's `diff` command and the
// studio's "what changed" panel both read it. Every list holds only what
// differs; an unchanged plan gives empty lists and `same()`.
//
// Identity rules (indices and ids shift under edits, names and layouts do not):
// - parameters are matched by name (the k-th param of a name with the k-th);
// - groups by mesh name + layout (replicate dims, shard dims, tensor ndim,
//   shard axes), never by id; batches by their position in the group;
// - meshes and TP transitions by name, ranks by number;
// - diagnostics split per subject (each param or transition they name, or
//   the scenario) and matched by severity + code + subject.

template <typename T>
struct Change {
    T before{};
    T after{};
};

// A group's identity: the mesh it was created on and its layout.
struct GroupIdentity {
    std::string mesh;
    std::vector<int> replicateMeshDims;
    std::vector<int> shardMeshDims;
    int tensorNdim = 0;
    std::vector<std::pair<int, int>> shardAxes;  // (mesh dim, tensor dim)

    static GroupIdentity of(const Group& group);
    auto operator<=>(const GroupIdentity&) const = default;
};
// "mesh main, replicate [0], shard [1] (mesh 1 -> tensor 0), ndim 2".
std::string groupIdentityText(const GroupIdentity& key);

// AdamW: optimizer "adamw", updated where it lives (Plan::adamwParams).
enum class ParamStatus { Grouped, NoComm, Rejected, AdamW };
// grouped | no-comm | rejected | adamw
std::string_view paramStatusName(ParamStatus status);

// Where one parameter stands in one plan: its spec and its place in the plan.
struct ParamInPlan {
    std::string name;
    int index = 0;
    std::string mesh;
    std::vector<int64_t> shape;
    DType dtype = DType::F32;
    std::optional<std::vector<Placement>> placements;
    bool requiresGrad = true;
    ParamStatus status = ParamStatus::Grouped;
    std::optional<GroupIdentity> group;  // grouped params only
    int groupId = -1;                    // the group's id in its plan, -1 if none
    std::optional<int> batch;            // position of its batch in the group
    std::optional<Coord> owner;          // replicate coordinate; nullopt: no owner (frozen)
};

// What differs for a parameter present in both plans.
struct ParamChanges {
    bool index = false;   // moved in the parameter list
    bool spec = false;    // mesh, shape, dtype, placements or requires_grad
    bool status = false;  // grouped / no-comm / rejected
    bool group = false;   // another group (by key) or the same key under another id
    bool batch = false;   // another batch position
    bool owner = false;   // another owner coordinate (or gained/lost one)
    bool any() const { return index || spec || status || group || batch || owner; }
};

struct ParamDiff {
    std::string name;
    ParamChanges changes;
    ParamInPlan before;
    ParamInPlan after;
};

// One coordinate's owner load; nullopt where the coordinate does not exist.
struct CoordLoadChange {
    Coord coord;
    std::optional<int64_t> before;
    std::optional<int64_t> after;
};

struct BatchSummary {
    std::vector<std::string> params;  // batch order, by name
    int64_t numel = 0;
    std::vector<int64_t> replicateSizes;
    bool isShard = false;
    std::vector<CoordLoad> loads;
    std::optional<double> imbalance;  // loadImbalance of `loads`
};

struct BatchDiff {
    int index = 0;  // position in the group
    std::optional<BatchSummary> before;
    std::optional<BatchSummary> after;
    std::vector<CoordLoadChange> loads;  // coordinates whose load differs
    bool loadsChanged = false;           // some coordinate's load differs (`loads` or not)
    bool paramsChanged = false;          // members or their order
    bool ownersChanged = false;
    bool shardComputeChanged = false;
};

struct GroupSummary {
    int id = 0;
    std::vector<int64_t> meshShape;
    std::vector<std::string> params;  // index order, by name
    size_t batchCount = 0;
    bool gathered = false;
    std::vector<CoordLoad> loads;     // summed over the batches per coordinate
    std::optional<double> imbalance;  // loadImbalance of `loads`
};

// A group present in either plan whose summary or batches differ.
struct GroupDiff {
    GroupIdentity key;
    std::optional<GroupSummary> before;  // nullopt: the group is new
    std::optional<GroupSummary> after;   // nullopt: the group is gone
    std::vector<BatchDiff> batches;      // only batches that differ
};

struct MeshSummary {
    std::vector<int64_t> shape;
    std::vector<std::string> dimNames;
    std::vector<int> ranks;
    bool operator==(const MeshSummary&) const = default;
};

struct MeshDiff {
    std::string name;
    std::optional<MeshSummary> before;
    std::optional<MeshSummary> after;
};

// A scenario option, values as text ("none" for an unset optional).
struct OptionChange {
    std::string name;  // as spelled in the scenario file, e.g. "max_batch_numel"
    std::string before;
    std::string after;
    bool inPlan = false;  // the plan JSON reports it (backend, alignment_bytes)
};

struct ScheduleStep {
    GroupIdentity group;
    int batch = 0;
    bool operator==(const ScheduleStep&) const = default;
};

// One rank's part of the owner plan: the params of the owner coordinate it
// belongs to (shared with the coordinate's other ranks) and the params it
// runs Newton-Schulz on itself.
struct RankSummary {
    std::vector<std::string> owned;  // by name, ascending index
    int64_t ownedNumel = 0;          // the owner coordinate's, not this rank's alone
    std::vector<std::string> computed;
    int64_t computedNumel = 0;  // what this rank orthogonalises
};

struct RankDiff {
    int rank = 0;
    std::optional<RankSummary> before;  // nullopt: not in that world
    std::optional<RankSummary> after;
};

// One diagnostic as it concerns one subject.
struct DiagnosticItem {
    Severity severity = Severity::Info;
    std::string code;
    std::string subject;  // "param 'w'", "transition 't'", or "" (the scenario)
    std::string message;  // the whole diagnostic's message
};

// Items of one diagnostic (severity, code and message alike) on several
// subjects, taken as one: a warning that names 240 params is one diagnostic,
// not 240 (a plan lists it once).
struct DiagnosticGroup {
    Severity severity = Severity::Info;
    std::string code;
    std::string message;
    std::vector<std::string> subjects;  // in the items' order; "" for the scenario
};
// In the order each first appears.
std::vector<DiagnosticGroup> groupDiagnostics(const std::vector<DiagnosticItem>& items);

// A diagnostic (same severity and code) on both sides whose message changed.
struct DiagnosticReword {
    Severity severity = Severity::Info;
    std::string code;
    Change<std::string> message;
};

struct PlanDiff {
    std::optional<Change<std::string>> scenarioName;
    std::optional<Change<int>> worldSize;
    std::optional<Change<std::optional<int64_t>>> effectiveReplicaCount;
    std::vector<OptionChange> options;
    std::vector<MeshDiff> meshes;

    std::vector<ParamInPlan> addedParams;    // in B only
    std::vector<ParamInPlan> removedParams;  // in A only
    std::vector<ParamDiff> changedParams;    // in both, B's order

    std::vector<GroupDiff> groups;  // A's group order, then groups new in B
    std::optional<Change<std::vector<ScheduleStep>>> schedule;
    std::vector<RankDiff> ranks;

    // TP transitions by name: decisions compared as their plan JSON.
    std::vector<std::string> addedTransitions;
    std::vector<std::string> removedTransitions;
    std::vector<std::string> changedTransitions;
    bool transitionOrderChanged = false;

    std::vector<DiagnosticItem> appearedDiagnostics;
    std::vector<DiagnosticItem> disappearedDiagnostics;
    std::vector<DiagnosticReword> rewordedDiagnostics;

    // The two plans are identical in everything the hsdp-plan/1 JSON reports
    // (scenario name included; options the plan does not report, such as lr,
    // are listed in `options` but do not count).
    bool same() const;
};

// How much of the diff to make. Without `batchLoads` a batch's summary and
// changes carry no per-coordinate loads (their imbalance and whether any load
// changed still count): at 131,072 ranks those are 16,384 coordinates a
// batch, GiB over a plan of many batches, which the studio does not show.
struct DiffOptions {
    bool batchLoads = true;
    std::stop_token stop;  // types/stopped.h: throws Stopped soon after a request
};

PlanDiff diffPlans(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                   const DiffOptions& options = {});

}  // namespace hsdp
