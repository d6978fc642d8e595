// SPDX-License-Identifier: Apache-2.0
#include "plan_diff/detail/plan_diff_scenario.h"

#include <map>
#include <set>
#include <sstream>
#include <tuple>

// The TP decisions are compared as the plan JSON reports them, so the diff
// follows that document's shape whatever types the planner uses inside.
#include "export/plan_json.h"

namespace hsdp {

namespace {

template <typename T>
std::string text(const std::optional<T>& value) {
    if (!value) return "none";
    std::ostringstream out;
    out << *value;
    return out.str();
}

template <typename T>
std::string text(const T& value) {
    std::ostringstream out;
    out << std::boolalpha << value;
    return out.str();
}

void diffOptions(const PlanOptions& a, const PlanOptions& b, PlanDiff& out) {
    auto add = [&](const char* name, std::string before, std::string after, bool inPlan) {
        if (before != after) out.options.push_back({name, before, after, inPlan});
    };
    add("alignment_bytes", text(a.alignmentBytes), text(b.alignmentBytes), true);
    add("max_batch_numel", text(a.maxBatchNumel), text(b.maxBatchNumel), false);
    add("hsdp_replica_count", text(a.hsdpReplicaCount), text(b.hsdpReplicaCount), false);
    add("auto_replica_count", text(a.autoReplicaCount), text(b.autoReplicaCount), false);
    add("devices_per_node", text(a.devicesPerNode), text(b.devicesPerNode), false);
    add("backend", a.backend, b.backend, true);
    add("broadcast_max_bytes", text(a.broadcastMaxBytes), text(b.broadcastMaxBytes), false);
    add("lr", text(a.lr), text(b.lr), false);
    add("gather_strategy", std::string(gatherStrategyOptionName(a.gatherStrategy)),
        std::string(gatherStrategyOptionName(b.gatherStrategy)), true);
}

std::map<std::string, MeshSummary> meshSummaries(const Scenario& s) {
    std::map<std::string, MeshSummary> out;
    for (const Mesh& m : s.meshes) out[m.name] = {m.shape, m.dimNames, m.ranks};
    return out;
}

void diffMeshes(const Scenario& a, const Scenario& b, PlanDiff& out) {
    auto inA = meshSummaries(a), inB = meshSummaries(b);
    auto find = [](const auto& map, const std::string& name) {
        auto it = map.find(name);
        return it == map.end() ? std::nullopt : std::optional<MeshSummary>(it->second);
    };
    std::vector<std::string> names;
    for (const Mesh& m : a.meshes) names.push_back(m.name);
    for (const Mesh& m : b.meshes)
        if (!inA.count(m.name)) names.push_back(m.name);
    for (const auto& name : names) {
        auto before = find(inA, name), after = find(inB, name);
        if (before != after) out.meshes.push_back({name, before, after});
    }
    // Same meshes in another order: the plan JSON lists them in file order.
    std::vector<std::string> orderA, orderB;
    for (const Mesh& m : a.meshes) orderA.push_back(m.name);
    for (const Mesh& m : b.meshes) orderB.push_back(m.name);
    if (out.meshes.empty() && orderA != orderB)
        for (const auto& name : orderB) out.meshes.push_back({name, inA[name], inB[name]});
}

std::string paramName(const Scenario& s, int p) {
    return static_cast<size_t>(p) < s.params.size() ? s.params[static_cast<size_t>(p)].name
                                                    : "#" + std::to_string(p);
}

RankSummary rankSummary(const Scenario& s, const RankOwnership& r) {
    RankSummary summary{{}, r.ownedNumel, {}, r.computedNumel};
    for (int p : r.owned) summary.owned.push_back(paramName(s, p));
    for (int p : r.computed) summary.computed.push_back(paramName(s, p));
    return summary;
}

// Whether two ranks own the same params by name, with no summary built: at
// 131,072 ranks nearly every rank is unchanged.
bool sameOwnership(const Scenario& a, const RankOwnership& ra, const Scenario& b,
                   const RankOwnership& rb) {
    if (ra.ownedNumel != rb.ownedNumel || ra.owned.size() != rb.owned.size() ||
        ra.computedNumel != rb.computedNumel || ra.computed.size() != rb.computed.size())
        return false;
    for (size_t i = 0; i < ra.owned.size(); ++i) {
        const int pa = ra.owned[i], pb = rb.owned[i];
        const bool known =
            static_cast<size_t>(pa) < a.params.size() && static_cast<size_t>(pb) < b.params.size();
        if (known ? a.params[static_cast<size_t>(pa)].name != b.params[static_cast<size_t>(pb)].name
                  : paramName(a, pa) != paramName(b, pb))
            return false;
    }
    return true;
}

std::map<int, const RankOwnership*> byRank(const Plan& plan) {
    std::map<int, const RankOwnership*> out;
    for (const RankOwnership& r : plan.ranks) out[r.rank] = &r;
    return out;
}

// Ranks ascending; a rank in one plan only is a change.
void diffRanks(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
               PlanDiff& out) {
    auto inA = byRank(pa), inB = byRank(pb);
    std::set<int> ranks;
    for (const auto& [r, o] : inA) ranks.insert(r);
    for (const auto& [r, o] : inB) ranks.insert(r);
    for (int r : ranks) {
        auto before = inA.find(r), after = inB.find(r);
        const bool both = before != inA.end() && after != inB.end();
        if (both && sameOwnership(a, *before->second, b, *after->second)) continue;
        RankDiff d{r, std::nullopt, std::nullopt};
        if (before != inA.end()) d.before = rankSummary(a, *before->second);
        if (after != inB.end()) d.after = rankSummary(b, *after->second);
        out.ranks.push_back(std::move(d));
    }
}

// Each transition's plan-JSON entry by name, without its position.
std::vector<std::pair<std::string, std::string>> transitionTexts(const Scenario& s,
                                                                 const Plan& plan) {
    Plan tpOnly;  // planToJson of just the TP part: the rest of a big plan is not needed
    tpOnly.tpTransitions = plan.tpTransitions;
    auto doc = planToJson(tpOnly, s);
    std::vector<std::pair<std::string, std::string>> out;
    for (auto entry : doc["tp_transitions"]) {
        std::string name = entry.value("name", "");
        entry.erase("index");
        out.emplace_back(name, entry.dump());
    }
    return out;
}

void diffTransitions(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                     PlanDiff& out) {
    auto ta = transitionTexts(a, pa), tb = transitionTexts(b, pb);
    std::map<std::string, std::string> inA(ta.begin(), ta.end()), inB(tb.begin(), tb.end());
    std::vector<std::string> orderA, orderB;
    for (const auto& [name, text] : ta) {
        orderA.push_back(name);
        if (!inB.count(name)) out.removedTransitions.push_back(name);
    }
    for (const auto& [name, text] : tb) {
        orderB.push_back(name);
        auto before = inA.find(name);
        if (before == inA.end())
            out.addedTransitions.push_back(name);
        else if (before->second != text)
            out.changedTransitions.push_back(name);
    }
    out.transitionOrderChanged =
        out.addedTransitions.empty() && out.removedTransitions.empty() && orderA != orderB;
}

std::vector<DiagnosticItem> diagnosticItems(const Scenario& s, const Plan& plan) {
    std::vector<DiagnosticItem> out;
    for (const Diagnostic& d : plan.diagnostics) {
        auto add = [&](std::string subject) {
            out.push_back({d.severity, d.code, std::move(subject), d.message});
        };
        for (int p : d.params)
            add("param '" +
                (static_cast<size_t>(p) < s.params.size() ? s.params[static_cast<size_t>(p)].name
                                                          : "#" + std::to_string(p)) +
                "'");
        for (int t : d.transitions)
            add("transition '" +
                (static_cast<size_t>(t) < s.tpTransitions.size()
                     ? s.tpTransitions[static_cast<size_t>(t)].name
                     : "#" + std::to_string(t)) +
                "'");
        if (d.params.empty() && d.transitions.empty()) add("");
    }
    return out;
}

using DiagnosticKey = std::tuple<Severity, std::string, std::string>;

std::set<DiagnosticKey> keysOf(const std::vector<DiagnosticItem>& items) {
    std::set<DiagnosticKey> out;
    for (const auto& i : items) out.emplace(i.severity, i.code, i.subject);
    return out;
}

void diffDiagnostics(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                     PlanDiff& out) {
    auto ia = diagnosticItems(a, pa), ib = diagnosticItems(b, pb);
    auto ka = keysOf(ia), kb = keysOf(ib);
    for (const auto& i : ib)
        if (!ka.count({i.severity, i.code, i.subject})) out.appearedDiagnostics.push_back(i);
    for (const auto& i : ia)
        if (!kb.count({i.severity, i.code, i.subject})) out.disappearedDiagnostics.push_back(i);
    std::map<std::pair<Severity, std::string>, std::string> messageA;
    for (const Diagnostic& d : pa.diagnostics) messageA[{d.severity, d.code}] = d.message;
    for (const Diagnostic& d : pb.diagnostics) {
        auto before = messageA.find({d.severity, d.code});
        if (before != messageA.end() && before->second != d.message)
            out.rewordedDiagnostics.push_back({d.severity, d.code, {before->second, d.message}});
    }
}

}  // namespace

void diffScenarioParts(const Scenario& a, const Plan& pa, const Scenario& b, const Plan& pb,
                       PlanDiff& out) {
    diffOptions(a.options, b.options, out);
    diffMeshes(a, b, out);
    diffRanks(a, pa, b, pb, out);
    diffTransitions(a, pa, b, pb, out);
    diffDiagnostics(a, pa, b, pb, out);
}

}  // namespace hsdp
