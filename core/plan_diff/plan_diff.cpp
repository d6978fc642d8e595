// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/plan_diff.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "plan/load_imbalance.h"
#include "plan_diff/detail/plan_diff_scenario.h"
#include "types/stopped.h"

namespace hsdp {

GroupIdentity GroupIdentity::of(const Group& group) {
    return {group.mesh, group.replicateMeshDims, group.shardMeshDims, group.layout.tensorNdim,
            group.layout.shardAxes};
}

std::string groupIdentityText(const GroupIdentity& key) {
    auto list = [](const std::vector<int>& v) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
        return "[" + out + "]";
    };
    std::string axes;
    for (const auto& [mesh, tensor] : key.shardAxes)
        axes += (axes.empty() ? "" : ", ") + std::to_string(mesh) + "->" + std::to_string(tensor);
    return "mesh " + key.mesh + ", replicate " + list(key.replicateMeshDims) + ", shard " +
           list(key.shardMeshDims) + (axes.empty() ? "" : " (mesh->tensor " + axes + ")") +
           ", ndim " + std::to_string(key.tensorNdim);
}

std::string_view paramStatusName(ParamStatus status) {
    switch (status) {
        case ParamStatus::Grouped:
            return "grouped";
        case ParamStatus::NoComm:
            return "no-comm";
        case ParamStatus::Rejected:
            return "rejected";
        case ParamStatus::AdamW:
            return "adamw";
    }
    return "?";
}

namespace {

// Every parameter of the scenario with its place in the plan, by index.
std::vector<ParamInPlan> paramStates(const Scenario& s, const Plan& plan) {
    std::vector<ParamInPlan> out;
    out.reserve(s.params.size());
    for (const ParamSpec& p : s.params) {
        ParamInPlan st;
        st.name = p.name;
        st.index = p.index;
        st.mesh = p.mesh;
        st.shape = p.shape;
        st.dtype = p.dtype;
        st.placements = p.placements;
        st.requiresGrad = p.requiresGrad;
        out.push_back(std::move(st));
    }
    auto mark = [&](const std::vector<int>& params, ParamStatus status) {
        for (int p : params)
            if (p >= 0 && static_cast<size_t>(p) < out.size())
                out[static_cast<size_t>(p)].status = status;
    };
    mark(plan.noCommParams, ParamStatus::NoComm);
    mark(plan.rejectedParams, ParamStatus::Rejected);
    mark(plan.adamwParams, ParamStatus::AdamW);
    for (const Group& g : plan.groups) {
        for (size_t b = 0; b < g.batches.size(); ++b) {
            for (int p : g.batches[b].params) {
                if (p < 0 || static_cast<size_t>(p) >= out.size()) continue;
                ParamInPlan& st = out[static_cast<size_t>(p)];
                st.group = GroupIdentity::of(g);
                st.groupId = g.id;
                st.batch = static_cast<int>(b);
                auto owner = g.batches[b].owner.find(p);
                if (owner != g.batches[b].owner.end()) st.owner = owner->second;
            }
        }
    }
    return out;
}

// The k-th parameter named N is "N#k": names are the identity, duplicates pair up in order.
std::vector<std::string> matchKeys(const std::vector<ParamInPlan>& states) {
    std::map<std::string, int> seen;
    std::vector<std::string> keys;
    for (const auto& st : states) keys.push_back(st.name + "#" + std::to_string(seen[st.name]++));
    return keys;
}

ParamChanges compareParams(const ParamInPlan& a, const ParamInPlan& b) {
    ParamChanges c;
    c.index = a.index != b.index;
    c.spec = a.mesh != b.mesh || a.shape != b.shape || a.dtype != b.dtype ||
             a.placements != b.placements || a.requiresGrad != b.requiresGrad;
    c.status = a.status != b.status;
    c.group = a.group != b.group || a.groupId != b.groupId;
    c.batch = a.batch != b.batch;
    c.owner = a.owner != b.owner;
    return c;
}

void diffParams(const std::vector<ParamInPlan>& a, const std::vector<ParamInPlan>& b,
                PlanDiff& out) {
    auto keysA = matchKeys(a), keysB = matchKeys(b);
    std::map<std::string, size_t> indexA, indexB;
    for (size_t i = 0; i < a.size(); ++i) indexA[keysA[i]] = i;
    for (size_t i = 0; i < b.size(); ++i) indexB[keysB[i]] = i;
    for (size_t i = 0; i < a.size(); ++i)
        if (!indexB.count(keysA[i])) out.removedParams.push_back(a[i]);
    for (size_t i = 0; i < b.size(); ++i) {
        auto match = indexA.find(keysB[i]);
        if (match == indexA.end()) {
            out.addedParams.push_back(b[i]);
            continue;
        }
        const ParamInPlan& before = a[match->second];
        ParamChanges changes = compareParams(before, b[i]);
        if (changes.any()) out.changedParams.push_back({b[i].name, changes, before, b[i]});
    }
}

std::vector<std::string> namesOf(const std::vector<int>& params, const Scenario& s) {
    std::vector<std::string> out;
    out.reserve(params.size());
    for (int p : params)
        out.push_back(p >= 0 && static_cast<size_t>(p) < s.params.size()
                          ? s.params[static_cast<size_t>(p)].name
                          : "#" + std::to_string(p));
    return out;
}

std::string nameOf(int param, const Scenario& s) {
    return namesOf({param}, s).front();
}

// A batch's loads with their coordinates spelled out.
std::vector<CoordLoad> coordLoads(const Batch& batch) {
    std::vector<CoordLoad> out;
    out.reserve(batch.loads.size());
    for (size_t c = 0; c < batch.loads.size(); ++c)
        out.push_back({batch.loadCoord(c), batch.loads[c]});
    return out;
}

BatchSummary batchSummary(const Batch& batch, const Scenario& s, bool withLoads) {
    return {namesOf(batch.params, s),
            batch.numel,
            batch.replicateSizes,
            batch.isShard,
            withLoads ? coordLoads(batch) : std::vector<CoordLoad>{},
            loadImbalance(batch.loads)};
}

// Loads summed over a group's batches per coordinate (each batch restarts
// the greedy), in coordinate order. Batches over the same coordinates sum
// position by position, with no map of coordinates (16,384 of them a batch
// at 131,072 ranks).
std::vector<CoordLoad> groupLoads(const Group& g) {
    const bool aligned =
        !g.batches.empty() && std::all_of(g.batches.begin(), g.batches.end(), [&](const Batch& b) {
            return b.replicateSizes == g.batches.front().replicateSizes;
        });
    if (aligned) {
        std::vector<CoordLoad> out = coordLoads(g.batches.front());
        for (size_t i = 1; i < g.batches.size(); ++i)
            for (size_t c = 0; c < out.size(); ++c) out[c].numel += g.batches[i].loads[c];
        return out;
    }
    std::map<Coord, int64_t> total;
    for (const Batch& b : g.batches)
        for (size_t c = 0; c < b.loads.size(); ++c) total[b.loadCoord(c)] += b.loads[c];
    std::vector<CoordLoad> out;
    for (const auto& [coord, numel] : total) out.push_back({coord, numel});
    return out;
}

GroupSummary groupSummary(const Group& g, const Scenario& s) {
    GroupSummary out;
    out.id = g.id;
    out.meshShape = g.meshShape;
    out.params = namesOf(g.params, s);
    out.batchCount = g.batches.size();
    out.gathered = !g.batches.empty() && g.batches.front().isShard;
    out.loads = groupLoads(g);
    out.imbalance = loadImbalance(out.loads);
    return out;
}

bool sameSummary(const GroupSummary& a, const GroupSummary& b) {
    auto loadsEqual = [](const std::vector<CoordLoad>& x, const std::vector<CoordLoad>& y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const auto& l, const auto& r) {
            return l.coord == r.coord && l.numel == r.numel;
        });
    };
    return a.id == b.id && a.meshShape == b.meshShape && a.params == b.params &&
           a.batchCount == b.batchCount && a.gathered == b.gathered && loadsEqual(a.loads, b.loads);
}

std::vector<CoordLoadChange> loadChanges(const Batch& a, const Batch& b) {
    std::vector<CoordLoadChange> out;
    if (a.replicateSizes == b.replicateSizes) {
        for (size_t c = 0; c < a.loads.size(); ++c)
            if (a.loads[c] != b.loads[c]) out.push_back({a.loadCoord(c), a.loads[c], b.loads[c]});
        return out;
    }
    std::map<Coord, CoordLoadChange> byCoord;
    for (size_t c = 0; c < a.loads.size(); ++c)
        byCoord[a.loadCoord(c)] = {a.loadCoord(c), a.loads[c], std::nullopt};
    for (size_t c = 0; c < b.loads.size(); ++c) {
        auto& change = byCoord[b.loadCoord(c)];
        change.coord = b.loadCoord(c);
        change.after = b.loads[c];
    }
    for (auto& [coord, c] : byCoord)
        if (c.before != c.after) out.push_back(std::move(c));
    return out;
}

// Whether loadChanges(a, b) is not empty, without making it where it can.
bool loadsDiffer(const Batch& a, const Batch& b) {
    if (a.replicateSizes == b.replicateSizes) return a.loads != b.loads;
    return !loadChanges(a, b).empty();
}

std::map<std::string, Coord> ownersByName(const Batch& batch, const Scenario& s) {
    std::map<std::string, Coord> out;
    for (const auto& [p, coord] : batch.owner) out[nameOf(p, s)] = coord;
    return out;
}

using ShardComputeByName = std::vector<std::pair<Coord, std::map<std::string, Coord>>>;
ShardComputeByName shardComputeByName(const Batch& batch, const Scenario& s) {
    ShardComputeByName out;
    for (const auto& sc : batch.shardCompute) {
        std::map<std::string, Coord> compute;
        for (const auto& [p, coord] : sc.computeCoord) compute[nameOf(p, s)] = coord;
        out.emplace_back(sc.replicateCoord, std::move(compute));
    }
    return out;
}

struct Side {
    const Scenario& scenario;
    const Plan& plan;
    const DiffOptions& options;
};

std::optional<BatchDiff> diffBatch(const Batch* a, const Batch* b, int index, Side sa, Side sb) {
    throwIfStopped(sa.options.stop);
    const bool withLoads = sa.options.batchLoads;
    BatchDiff d;
    d.index = index;
    if (a) d.before = batchSummary(*a, sa.scenario, withLoads);
    if (b) d.after = batchSummary(*b, sb.scenario, withLoads);
    if (!a || !b) return d;
    d.loadsChanged = loadsDiffer(*a, *b);
    if (withLoads && d.loadsChanged) d.loads = loadChanges(*a, *b);
    d.paramsChanged = d.before->params != d.after->params;
    d.ownersChanged = ownersByName(*a, sa.scenario) != ownersByName(*b, sb.scenario);
    d.shardComputeChanged = a->isShard != b->isShard || shardComputeByName(*a, sa.scenario) !=
                                                            shardComputeByName(*b, sb.scenario);
    bool differs = d.loadsChanged || d.paramsChanged || d.ownersChanged || d.shardComputeChanged ||
                   d.before->numel != d.after->numel ||
                   d.before->replicateSizes != d.after->replicateSizes ||
                   d.before->isShard != d.after->isShard;
    return differs ? std::optional<BatchDiff>(std::move(d)) : std::nullopt;
}

std::optional<GroupDiff> diffGroup(const GroupIdentity& key, const Group* a, const Group* b,
                                   Side sa, Side sb) {
    GroupDiff d;
    d.key = key;
    if (a) d.before = groupSummary(*a, sa.scenario);
    if (b) d.after = groupSummary(*b, sb.scenario);
    size_t batches = std::max(a ? a->batches.size() : 0, b ? b->batches.size() : 0);
    for (size_t i = 0; i < batches; ++i) {
        const Batch* ba = a && i < a->batches.size() ? &a->batches[i] : nullptr;
        const Batch* bb = b && i < b->batches.size() ? &b->batches[i] : nullptr;
        if (auto bd = diffBatch(ba, bb, static_cast<int>(i), sa, sb))
            d.batches.push_back(std::move(*bd));
    }
    bool differs = !a || !b || !d.batches.empty() || !sameSummary(*d.before, *d.after);
    return differs ? std::optional<GroupDiff>(std::move(d)) : std::nullopt;
}

void diffGroups(Side sa, Side sb, PlanDiff& out) {
    std::vector<GroupIdentity> order;
    std::map<GroupIdentity, const Group*> inA, inB;
    for (const Group& g : sa.plan.groups) {
        inA[GroupIdentity::of(g)] = &g;
        order.push_back(GroupIdentity::of(g));
    }
    for (const Group& g : sb.plan.groups) {
        inB[GroupIdentity::of(g)] = &g;
        if (!inA.count(GroupIdentity::of(g))) order.push_back(GroupIdentity::of(g));
    }
    for (const GroupIdentity& key : order) {
        auto a = inA.find(key), b = inB.find(key);
        if (auto d = diffGroup(key, a == inA.end() ? nullptr : a->second,
                               b == inB.end() ? nullptr : b->second, sa, sb))
            out.groups.push_back(std::move(*d));
    }
}

std::vector<ScheduleStep> scheduleSteps(const Plan& plan) {
    std::map<int, GroupIdentity> keyOfId;
    for (const Group& g : plan.groups) keyOfId[g.id] = GroupIdentity::of(g);
    std::vector<ScheduleStep> out;
    for (const ScheduleEntry& e : plan.schedule) out.push_back({keyOfId[e.group], e.batch});
    return out;
}

}  // namespace

PlanDiff diffPlans(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                   const DiffOptions& options) {
    PlanDiff out;
    if (pa.scenarioName != pb.scenarioName)
        out.scenarioName = Change<std::string>{pa.scenarioName, pb.scenarioName};
    if (pa.worldSize != pb.worldSize) out.worldSize = Change<int>{pa.worldSize, pb.worldSize};
    if (pa.effectiveReplicaCount != pb.effectiveReplicaCount)
        out.effectiveReplicaCount =
            Change<std::optional<int64_t>>{pa.effectiveReplicaCount, pb.effectiveReplicaCount};
    diffParams(paramStates(a, pa), paramStates(b, pb), out);
    diffGroups({a, pa, options}, {b, pb, options}, out);
    throwIfStopped(options.stop);
    auto stepsA = scheduleSteps(pa), stepsB = scheduleSteps(pb);
    if (stepsA != stepsB) out.schedule = Change<std::vector<ScheduleStep>>{stepsA, stepsB};
    diffScenarioParts(a, pa, b, pb, out);
    return out;
}

bool PlanDiff::same() const {
    bool optionsInPlan =
        std::any_of(options.begin(), options.end(), [](const OptionChange& o) { return o.inPlan; });
    return !scenarioName && !worldSize && !effectiveReplicaCount && !optionsInPlan &&
           meshes.empty() && addedParams.empty() && removedParams.empty() &&
           changedParams.empty() && groups.empty() && !schedule && ranks.empty() &&
           addedTransitions.empty() && removedTransitions.empty() && changedTransitions.empty() &&
           !transitionOrderChanged && appearedDiagnostics.empty() &&
           disappearedDiagnostics.empty() && rewordedDiagnostics.empty();
}

std::vector<DiagnosticGroup> groupDiagnostics(const std::vector<DiagnosticItem>& items) {
    std::vector<DiagnosticGroup> groups;
    std::map<std::tuple<Severity, std::string, std::string>, size_t> at;
    for (const DiagnosticItem& item : items) {
        auto [it, added] = at.try_emplace({item.severity, item.code, item.message}, groups.size());
        if (added) groups.push_back({item.severity, item.code, item.message, {}});
        groups[it->second].subjects.push_back(item.subject);
    }
    return groups;
}

}  // namespace hsdp
