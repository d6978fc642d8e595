// SPDX-License-Identifier: Apache-2.0
#include "export/plan_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "export/text_wrap.h"
#include "plan/load_imbalance.h"

namespace hsdp {

namespace {

template <typename T>
std::string join(const std::vector<T>& values, const char* sep = ", ") {
    std::ostringstream out;
    for (size_t i = 0; i < values.size(); ++i) out << (i ? sep : "") << values[i];
    return out.str();
}

std::string coordText(const Coord& c) {
    return "(" + join(c, ",") + ")";
}

std::string fixed2(double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", value);
    return buf;
}

// Lists at most `limit` items, then "... N more".
// `shown`, the first of `total` items, and how many more there are.
std::string cappedOf(const std::vector<std::string>& shown, size_t total, const char* sep) {
    std::string out = join(shown, sep);
    if (total > shown.size())
        out += std::string(sep) + "... " + std::to_string(total - shown.size()) + " more";
    return out;
}

std::string capped(const std::vector<std::string>& items, size_t limit, const char* sep = ", ") {
    return cappedOf({items.begin(), items.begin() + std::min(items.size(), limit)}, items.size(),
                    sep);
}

constexpr size_t kRankParamsListed = 8;  // a 70B rank owns hundreds: list the first few

const char* const kGlossary =
    "  group: params with the same mesh, replicate/shard mesh dims and layout; they\n"
    "    share collectives. gathered: sharded, so the owner all-gathers the full matrix.\n"
    "  no-comm: a plain tensor (no placements), updated locally. rejected: an error\n"
    "    diagnostic leaves the param without a plan (a run lists it as not run).\n"
    "  replicate coordinate: a position along the replicate mesh dims, e.g. (1);\n"
    "    each param gets one owner coordinate per batch that computes its update.\n"
    "  replica count: hsdp_replica_count; replicate dims larger than it are split into\n"
    "    sub-groups of that size (coordinates taken modulo it); off: not split.\n"
    "  batch: params assigned owners together (max batch numel caps its size).\n"
    "  load: numel owned by a replicate coordinate in a batch. imbalance max/mean:\n"
    "    the busiest coordinate's load over the mean load (1.00 is even); the\n"
    "    owner-imbalance warning uses the same measure.\n"
    "  shard compute: inside the owner's replicate coordinate, the shard coordinate\n"
    "    (a rank of the shard group) that runs Newton-Schulz on the gathered matrix.\n"
    "  gather strategy: how a gathered batch reaches its Newton-Schulz ranks: all-gather\n"
    "    (every member gathers every matrix, the update is broadcast back) or all-to-all\n"
    "    (each member sends only the computing rank its piece and gets back only its\n"
    "    slice); options.gather_strategy, or auto: the one the cost model predicts faster.\n"
    "  schedule: the order batches run in, g<group>/b<batch>.\n"
    "  TP lowered: one collective does the transition; fallback: the generic\n"
    "    redistribution (rank-order: the TP group's ranks are not ascending).\n"
    "  rank N holds: elements of its own shards (plain params whole); gathers: elements\n"
    "    the fused all-gathers bring it; computes: Newton-Schulz elements it runs itself\n"
    "    (a gathered param's full matrix on its shard-compute rank only), on params #i.\n"
    "  owner coordinate of: params its replicate coordinate owns, whole; every rank\n"
    "    of the owning shard group lists them, so this is not a per-rank load.\n";

class Writer {
public:
    Writer(const Plan& plan, const Scenario& scenario, const PlanTextOptions& options)
        : plan_(plan), scenario_(scenario), options_(options) {}

    std::string write() {
        header();
        diagnostics();
        meshes();
        params();
        for (const auto& g : plan_.groups) group(g);
        schedule();
        tp();
        ranks();
        glossary();
        return wrapText(out_.str());
    }

private:
    std::string paramName(int index) const {
        return "#" + std::to_string(index) + " " +
               scenario_.params.at(static_cast<size_t>(index)).name;
    }

    void header() {
        out_ << "Plan for '" << plan_.scenarioName << "' (hsdp-plan/1)\n"
             << "world size " << plan_.worldSize << ", backend " << scenario_.options.backend
             << ", replica count "
             << (plan_.effectiveReplicaCount
                     ? std::to_string(*plan_.effectiveReplicaCount) + " (replicate groups split)"
                     : std::string("off (replicate groups not split)"))
             << ", alignment " << plan_.alignmentBytes << " B, max batch numel "
             << (scenario_.options.maxBatchNumel ? std::to_string(*scenario_.options.maxBatchNumel)
                                                 : "no cap (one batch per group)")
             << "\n";
        loads();
        out_ << "\n";
    }

    // The two imbalances a reader weighs, the one the step waits for first,
    // on one line: a huge world's plan text stays short.
    void loads() {
        const auto compute = rankComputeImbalance(plan_.ranks);
        const auto owner = worstOwnerImbalance(plan_.groups);
        if (!compute && !owner) return;
        if (compute)
            out_ << "Newton-Schulz per rank max/mean " << fixed2(compute->ratio) << " (rank "
                 << compute->busiestRank << " sets the step)";
        if (owner)
            out_ << (compute ? ", " : "") << "owner imbalance " << fixed2(owner->ratio)
                 << " (group " << plan_.groups[static_cast<size_t>(owner->group)].id
                 << (owner->overGroup() ? std::string(" over its batches")
                                        : " batch " + std::to_string(owner->batch))
                 << ")";
        out_ << "\n";
    }

    void diagnostics() {
        out_ << "Diagnostics (" << plan_.diagnostics.size() << ")\n";
        if (plan_.diagnostics.empty()) out_ << "  none\n";
        for (const auto& d : plan_.diagnostics) {
            out_ << "  " << severityName(d.severity) << " " << d.code << ": " << d.message << "\n";
            if (!d.params.empty()) out_ << "      params " << indices(d.params) << "\n";
            if (!d.transitions.empty())
                out_ << "      transitions " << indices(d.transitions) << "\n";
        }
        out_ << "\n";
    }

    std::string indices(const std::vector<int>& values) const {
        std::vector<std::string> items;
        for (int v : values) items.push_back(std::to_string(v));
        return capped(items, options_.maxItems * 4);
    }

    void meshes() {
        out_ << "Meshes\n";
        for (const Mesh& m : scenario_.meshes) {
            bool dense = true;
            for (size_t i = 0; i < m.ranks.size(); ++i)
                dense = dense && m.ranks[i] == static_cast<int>(i);
            out_ << "  " << m.name << " shape [" << join(m.shape) << "] dims (" << join(m.dimNames)
                 << ") ranks ";
            if (dense)
                out_ << "0.." << static_cast<int64_t>(m.ranks.size()) - 1 << "\n";
            else {
                std::vector<std::string> r;
                for (int x : m.ranks) r.push_back(std::to_string(x));
                out_ << "[" << capped(r, options_.maxItems) << "]\n";
            }
        }
        out_ << "\n";
    }

    void params() {
        size_t grouped = scenario_.params.size() - plan_.noCommParams.size() -
                         plan_.rejectedParams.size() - plan_.adamwParams.size();
        out_ << "Params: " << scenario_.params.size() << " (" << grouped << " grouped, "
             << plan_.noCommParams.size() << " no-comm, " << plan_.rejectedParams.size()
             << " rejected";
        // Said only when the scenario has them: a Muon-only plan reads as before.
        if (hasAdamWParams(scenario_))
            out_ << ", " << plan_.adamwParams.size()
                 << " AdamW; optimizer muon unless listed under AdamW";
        out_ << ")\n";
        list("  no-comm: ", plan_.noCommParams);
        list("  rejected: ", plan_.rejectedParams);
        list(
            "  AdamW (optimizer adamw: updated where they live, no group, owner, gather or "
            "Newton-Schulz): ",
            plan_.adamwParams);
        out_ << "\n";
    }

    void list(const char* title, const std::vector<int>& indices) {
        if (indices.empty()) return;
        std::vector<std::string> names;
        for (int i : indices) names.push_back(paramName(i));
        out_ << title << capped(names, options_.maxItems) << "\n";
    }

    void group(const Group& g) {
        bool gathered = !g.batches.empty() && g.batches.front().isShard;
        out_ << "Group " << g.id << "  mesh " << g.mesh << " [" << join(g.meshShape)
             << "]  replicate dims [" << join(g.replicateMeshDims) << "]  shard dims ["
             << join(g.shardMeshDims) << "]  " << (gathered ? "gathered" : "not gathered") << "\n";
        std::vector<std::string> axes;
        for (const auto& [m, t] : g.layout.shardAxes)
            axes.push_back("mesh " + std::to_string(m) + "->tensor " + std::to_string(t));
        out_ << "  layout: ndim " << g.layout.tensorNdim << ", shard axes [" << join(axes)
             << "], last-2d sharded " << (g.layout.isLast2dSharded ? "yes" : "no") << "\n";
        if (gathered)
            out_ << "  gather strategy: " << gatherStrategyName(g.gatherStrategy) << " ("
                 << g.gatherStrategyWhy << ")\n";
        list("  params: ", g.params);
        for (size_t b = 0; b < g.batches.size(); ++b) batch(g.batches[b], b);
        out_ << "\n";
    }

    void batch(const Batch& b, size_t index) {
        out_ << "  batch " << index << ": " << b.params.size() << " params, numel " << b.numel
             << ", replicate sizes [" << join(b.replicateSizes) << "]\n";
        std::vector<std::string> owners;
        for (int p : b.params) {
            auto it = b.owner.find(p);
            std::string numel = std::to_string(scenario_.params[static_cast<size_t>(p)].numel());
            owners.push_back(
                paramName(p) + " (" + numel + ") -> " +
                (it == b.owner.end() ? std::string("no owner") : coordText(it->second)));
        }
        out_ << "    owners (param (numel) -> replicate coordinate): "
             << capped(owners, options_.maxItems, "; ") << "\n";
        loads(b);
        if (b.isShard) shardCompute(b);
    }

    void loads(const Batch& b) {
        if (b.loads.empty()) return;
        // Only the items shown are spelled out: a batch at 131,072 ranks has 16,384.
        std::vector<std::string> items;
        for (size_t c = 0; c < std::min(b.loads.size(), options_.maxItems); ++c)
            items.push_back(coordText(b.loadCoord(c)) + "=" + std::to_string(b.loads[c]));
        const int64_t sum = b.loads.sum(), mx = b.loads.max(), mn = b.loads.min();
        double mean = static_cast<double>(sum) / static_cast<double>(b.loads.size());
        out_ << "    loads (numel owned per replicate coordinate): "
             << cappedOf(items, b.loads.size(), " ") << "\n"
             << "    imbalance: max/mean "
             << (mean > 0 ? fixed2(static_cast<double>(mx) / mean) : "-") << " (min " << mn
             << ", max " << mx << ", coordinates " << b.loads.size() << ")\n";
    }

    void shardCompute(const Batch& b) {
        std::vector<std::string> items;
        for (const auto& sc : b.shardCompute) {
            if (sc.computeCoord.empty()) continue;
            std::vector<std::string> parts;
            for (const auto& [p, c] : sc.computeCoord)
                parts.push_back("#" + std::to_string(p) + " on shard " + coordText(c));
            items.push_back("replicate " + coordText(sc.replicateCoord) + ": " +
                            capped(parts, options_.maxItems, ", "));
        }
        out_ << "    shard compute (which shard coordinate runs Newton-Schulz): "
             << (items.empty() ? "-" : capped(items, options_.maxItems, "; ")) << "\n";
    }

    void schedule() {
        std::vector<std::string> steps;
        for (const auto& s : plan_.schedule)
            steps.push_back("g" + std::to_string(s.group) + "/b" + std::to_string(s.batch));
        out_ << "Schedule (" << steps.size()
             << " steps, g<group>/b<batch>): " << capped(steps, options_.maxItems * 4, " ")
             << "\n\n";
    }

    void tp() {
        out_ << "TP transitions (" << plan_.tpTransitions.size() << ")\n";
        for (const auto& t : plan_.tpTransitions) {
            const auto& spec = scenario_.tpTransitions.at(static_cast<size_t>(t.index));
            out_ << "  #" << t.index << " " << t.name << "  " << placementsToString(spec.src)
                 << " -> " << placementsToString(spec.dst) << "  " << classification(t) << "\n";
            if (!t.tpMeshDim) {
                out_ << "    no tp dim on mesh: no TP path\n";
                continue;
            }
            std::map<std::string, std::vector<std::string>> byDecision;  // decision -> groups
            for (const auto& g : t.groups) {
                std::string what = std::string(tpPathName(g.path));
                if (g.op) what += " " + std::string(tpLoweredOpName(*g.op));
                if (g.reason) what += " (" + std::string(tpFallbackReasonName(*g.reason)) + ")";
                if (t.widened(g)) what += ", runs the fallback (widened)";
                byDecision[what].push_back("[" + join(g.meshRanks, ",") + "]");
            }
            for (const auto& [what, groups] : byDecision)
                out_ << "    " << what << ": " << capped(groups, options_.maxItems, " ") << "\n";
        }
        out_ << "\n";
    }

    static std::string classification(const TpPlan& t) {
        if (!t.classification)
            return "not lowerable to one collective (runs the generic redistribution)";
        std::string out(tpKindName(t.classification->kind));
        if (t.classification->tensorDim)
            out += " dim " + std::to_string(*t.classification->tensorDim);
        if (t.classification->reduceOp)
            out += " " + std::string(reduceOpName(*t.classification->reduceOp));
        return out;
    }

    void ranks() {
        out_ << "Ranks (" << plan_.ranks.size()
             << ": what each rank holds, gathers and computes; its owner coordinate's params)\n";
        if (plan_.ranks.size() <= options_.maxRanks) {
            for (const auto& r : plan_.ranks) out_ << rankLine(r, true) << "\n";
            return;
        }
        rankSummary();
    }

    static std::string paramList(const std::vector<int>& params) {
        std::vector<std::string> items;
        for (int p : params) items.push_back("#" + std::to_string(p));
        return capped(items, kRankParamsListed, " ");
    }

    // "rank 5: holds 96 elements, gathers 32, computes 64 (Newton-Schulz on 1
    // param: #0); owner coordinate of 2 params (128 elements): #0 #1"
    static std::string rankLine(const RankOwnership& r, bool lists) {
        std::ostringstream line;
        line << "  rank " << r.rank << ": holds " << r.heldNumel << " elements, gathers "
             << r.gatheredNumel << ", computes " << r.computedNumel << " (Newton-Schulz on "
             << r.computed.size() << (r.computed.size() == 1 ? " param" : " params")
             << (lists && !r.computed.empty() ? ": " + paramList(r.computed) : "")
             << "); owner coordinate of " << r.owned.size() << " params (" << r.ownedNumel
             << " elements)" << (lists && !r.owned.empty() ? ": " + paramList(r.owned) : "");
        if (!r.adamw.empty())
            line << "; AdamW on " << r.adamw.size() << (r.adamw.size() == 1 ? " param" : " params")
                 << " (" << r.adamwNumel << " elements of its shards)"
                 << (lists ? ": " + paramList(r.adamw) : "");
        return line.str();
    }

    // min, max (with their ranks) and mean of one per-rank figure.
    void spread(const char* name, int64_t RankOwnership::*figure) {
        const auto& rs = plan_.ranks;
        auto [lo, hi] = std::minmax_element(
            rs.begin(), rs.end(),
            [&](const auto& a, const auto& b) { return a.*figure < b.*figure; });
        double sum = 0;
        for (const auto& r : rs) sum += static_cast<double>(r.*figure);
        double mean = sum / static_cast<double>(rs.size());
        out_ << "  " << name << ": min " << (*lo).*figure << " (rank " << lo->rank << "), max "
             << (*hi).*figure << " (rank " << hi->rank << "), mean " << fixed2(mean)
             << (mean > 0 ? ", max/mean " + fixed2(static_cast<double>((*hi).*figure) / mean) : "")
             << "\n";
    }

    // Huge worlds: the spread of each per-rank figure, the ranks computing
    // nothing and how many distinct ownership sets there are, instead of one
    // line per rank.
    void rankSummary() {
        const auto& rs = plan_.ranks;
        spread("held numel", &RankOwnership::heldNumel);
        spread("gathered numel", &RankOwnership::gatheredNumel);
        spread("computed (Newton-Schulz) numel", &RankOwnership::computedNumel);
        spread("owner coordinate numel", &RankOwnership::ownedNumel);
        size_t idle = 0;
        std::map<std::vector<int>, size_t> distinct;
        for (const auto& r : rs) {
            idle += r.computed.empty() ? 1 : 0;
            ++distinct[r.owned];
        }
        out_ << "  ranks computing nothing: " << idle
             << "; distinct ownership sets: " << distinct.size() << "\n";
        for (size_t i = 0; i < std::min(rs.size(), options_.maxItems); ++i)
            out_ << rankLine(rs[i], false) << "\n";
        out_ << "  ... " << rs.size() - std::min(rs.size(), options_.maxItems)
             << " more ranks (use --json for all)\n";
    }

    // The terms above, for readers who do not know the optimizer's code.
    void glossary() { out_ << "\nGlossary\n" << kGlossary; }

    const Plan& plan_;
    const Scenario& scenario_;
    const PlanTextOptions& options_;
    std::ostringstream out_;
};

}  // namespace

std::string planToText(const Plan& plan, const Scenario& scenario) {
    return planToText(plan, scenario, PlanTextOptions{});
}

std::string planToText(const Plan& plan, const Scenario& scenario, const PlanTextOptions& options) {
    return Writer(plan, scenario, options).write();
}

}  // namespace hsdp
