// SPDX-License-Identifier: Apache-2.0
#include "run/detail/run_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "runtime/reduce_kernels.h"
#include "types/geometry.h"
#include "verify/truth.h"
#include "verify/verify.h"

namespace hsdp {

namespace {

constexpr size_t kMaxDetailParts = 8;
constexpr size_t kMaxMismatches = 64;

std::string joinDetail(const std::vector<std::string>& parts) {
    std::string out;
    for (size_t i = 0; i < parts.size() && i < kMaxDetailParts; ++i)
        out += (i ? "; " : "") + parts[i];
    if (parts.size() > kMaxDetailParts)
        out += "; +" + std::to_string(parts.size() - kMaxDetailParts) + " more";
    return out;
}

// Rank threads report in any order; results list ranks ascending.
std::vector<Mismatch> byRank(std::vector<Mismatch> v) {
    std::stable_sort(v.begin(), v.end(),
                     [](const Mismatch& a, const Mismatch& b) { return a.rank < b.rank; });
    return v;
}

// "ranks 0, 1: message" per distinct message, ranks ascending.
std::vector<std::string> groupErrors(const std::vector<RunSink::RankError>& errors) {
    std::map<std::string, std::set<int>> byText;
    for (const auto& e : errors) byText[e.text].insert(e.rank);
    std::vector<std::pair<int, std::string>> lines;
    for (const auto& [text, ranks] : byText) {
        std::string who = ranks.size() == 1 ? "rank " : "ranks ";
        size_t i = 0;
        for (int r : ranks) who += (i++ ? ", " : "") + std::to_string(r);
        lines.push_back({*ranks.begin(), who + ": " + text});
    }
    std::sort(lines.begin(), lines.end());
    std::vector<std::string> out;
    for (auto& l : lines) out.push_back(std::move(l.second));
    return out;
}

// Whether `p` is in a gathered batch and has an owner there.
bool expectsGather(const Plan& plan, int p) {
    const Group* g = plan.groupOf(p);
    if (!g) return false;
    for (const auto& b : g->batches)
        if (std::find(b.params.begin(), b.params.end(), p) != b.params.end())
            return b.isShard && b.owner.count(p);
    return false;
}

int holders(const ExecEnv& env, const ParamSpec& spec) {
    if (!spec.placements) return env.scenario->worldSize;
    const Mesh* mesh = env.scenario->findMesh(spec.mesh);
    return mesh ? int(mesh->ranks.size()) : 0;
}

void appendMismatches(std::vector<Mismatch>& into, const std::vector<Mismatch>& from) {
    for (const auto& m : from)
        if (into.size() < kMaxMismatches) into.push_back(m);
}

ParamRunResult summarizeParam(const ExecEnv& env, const RunSink& sink, const ParamSpec& spec,
                              bool runFailed) {
    ParamRunResult r;
    r.index = spec.index;
    r.name = spec.name;
    r.shapeRun = env.paramShapes[size_t(spec.index)];
    static const RunSink::ParamRecords none;
    auto it = sink.params().find(spec.index);
    const auto& rec = it != sink.params().end() ? it->second : none;
    std::vector<std::string> parts = groupErrors(rec.gatherErrors);
    for (const auto& m : byRank(rec.gatherMismatches)) parts.push_back(m.text);
    for (const auto& e : groupErrors(rec.stepErrors)) parts.push_back(e);
    std::set<int> explained;  // ranks whose wrong update already says why the result is wrong
    for (const auto& m : byRank(rec.updateMismatches)) {
        parts.push_back(m.text);
        explained.insert(m.rank);
    }
    for (const auto& m : byRank(rec.stepMismatches))
        if (!explained.count(m.rank)) parts.push_back(m.text);
    if (!rec.gatherErrors.empty())
        r.gather = GatherVerdict::Error;
    else if (!rec.gatherMismatches.empty())
        r.gather = GatherVerdict::Mismatch;
    else if (rec.gatheredRanks > 0)
        r.gather = GatherVerdict::Exact;
    else if (expectsGather(*env.plan, spec.index) && runFailed)
        r.gather = GatherVerdict::NotReached;
    const bool incomplete = rec.finalRanks < holders(env, spec);
    if (!rec.stepErrors.empty() || (incomplete && !runFailed))
        r.step = CheckVerdict::Error;
    else if (!rec.stepMismatches.empty() || !rec.updateMismatches.empty())
        r.step = CheckVerdict::Mismatch;
    else if (incomplete)
        r.step = CheckVerdict::NotReached;  // the run stopped before every holder checked it
    if (incomplete)
        parts.push_back("not verified: " + std::to_string(holders(env, spec) - rec.finalRanks) +
                        " of " + std::to_string(holders(env, spec)) +
                        " holders never reported (the run stopped)");
    for (const auto& [key, hashes] : rec.replicaHashes)
        for (const auto& [rank, h] : hashes)
            if (h != hashes.front().second) {
                r.replicas = ReplicaVerdict::Diverged;
                parts.push_back("replicas diverged: rank " + std::to_string(rank) +
                                " differs from rank " + std::to_string(hashes.front().first));
                break;
            }
    // Replicas compared over the ranks that got that far say nothing of the
    // rest: identical so far is not identical.
    if (r.replicas == ReplicaVerdict::Identical &&
        (r.gather == GatherVerdict::NotReached || r.step == CheckVerdict::NotReached))
        r.replicas = ReplicaVerdict::NotReached;
    appendMismatches(r.mismatches, byRank(rec.gatherMismatches));
    appendMismatches(r.mismatches, byRank(rec.updateMismatches));
    appendMismatches(r.mismatches, byRank(rec.stepMismatches));
    r.detail = joinDetail(parts);
    return r;
}

// op(a, b) elementwise in fp32, by the collectives' own kernel (avg sums here
// and is divided once by the caller).
void combine(Tensor& acc, const Tensor& t, ReduceOp op) {
    reduceElements(DType::F32, op, acc.data.data(), acc.data.data(), t.data.data(),
                   acc.data.size());
}

// The value a partial layout stands for at `coord`: reduce the outputs over
// the partial mesh dims, innermost first (splits were applied left to right).
std::optional<Tensor> reducePartials(const RunSink::TpRecords& rec, const Mesh& mesh,
                                     const std::vector<Placement>& dst,
                                     const std::vector<int>& pdims, size_t idx, Coord coord) {
    if (idx == pdims.size()) {
        auto it = rec.outputs.find(mesh.rankAt(coord));
        if (it == rec.outputs.end()) return std::nullopt;
        return it->second.second;
    }
    const int m = pdims[idx];
    std::optional<Tensor> acc;
    for (int64_t v = 0; v < mesh.shape[size_t(m)]; ++v) {
        coord[size_t(m)] = v;
        auto t = reducePartials(rec, mesh, dst, pdims, idx + 1, coord);
        if (!t) return std::nullopt;
        if (!acc)
            acc = *t;
        else if (acc->shape != t->shape)
            return std::nullopt;
        else
            combine(*acc, *t, dst[size_t(m)].reduceOp);
    }
    if (acc && dst[size_t(m)].reduceOp == ReduceOp::Avg)
        for (auto& x : acc->data) x /= float(mesh.shape[size_t(m)]);
    return acc;
}

// Partial dst: every rank's output, reduced over its partial group, must be the truth.
void judgePartials(const ExecEnv& env, int t, const RunSink::TpRecords& rec,
                   std::vector<Mismatch>& out) {
    const auto& spec = env.scenario->tpTransitions[size_t(t)];
    const Mesh& mesh = env.scenario->mesh(spec.mesh);
    const auto& shape = env.tpShapes[size_t(t)];
    std::vector<int> pdims;
    std::vector<Placement> dstR = spec.dst;
    for (size_t m = 0; m < spec.dst.size(); ++m)
        if (spec.dst[m].isPartial()) {
            pdims.push_back(int(m));
            dstR[m] = Placement::replicate();
        }
    const Tensor truth = globalTensor(Truth::tp(t), shape);
    for (const auto& [rank, entry] : rec.outputs) {
        auto reduced = reducePartials(rec, mesh, spec.dst, pdims, 0, entry.first);
        const ShardLayout layout = shardLayout(shape, dstR, mesh.shape, entry.first);
        if (!reduced) {
            Mismatch incomplete;
            incomplete.rank = rank;
            incomplete.what = "tp";
            incomplete.text = "rank " + std::to_string(rank) + ": partial group incomplete";
            out.push_back(std::move(incomplete));
            continue;
        }
        if (auto m = compareLocal(rank, *reduced, truth, layout, "tp")) {
            m->text += " (after reducing over the partial mesh dims)";
            out.push_back(*m);
        }
    }
}

TpRunResult summarizeTransition(const ExecEnv& env, const RunSink& sink, const TpPlan& tp,
                                bool runFailed) {
    TpRunResult r;
    r.index = tp.index;
    r.name = tp.name;
    const auto& spec = env.scenario->tpTransitions[size_t(tp.index)];
    static const RunSink::TpRecords none;
    auto it = sink.transitions().find(tp.index);
    const auto& rec = it != sink.transitions().end() ? it->second : none;
    for (const auto& p : rec.paths) r.path += (r.path.empty() ? "" : "+") + p;
    std::vector<Mismatch> mismatches = byRank(rec.mismatches);
    if (!rec.outputs.empty()) judgePartials(env, tp.index, rec, mismatches);
    std::vector<std::string> parts = groupErrors(rec.errors);
    for (const auto& m : mismatches) parts.push_back(m.text);
    const Mesh* mesh = env.scenario->findMesh(spec.mesh);
    const int holders = mesh ? int(mesh->ranks.size()) : 0;
    if (!rec.errors.empty() || (rec.ranks < holders && !runFailed))
        r.result = CheckVerdict::Error;
    else if (!mismatches.empty())
        r.result = CheckVerdict::Mismatch;
    else if (rec.ranks < holders)
        r.result = CheckVerdict::NotReached;
    if (rec.ranks < holders)
        parts.push_back(std::to_string(holders - rec.ranks) + " ranks never reported" +
                        (runFailed ? " (the run stopped)" : ""));
    appendMismatches(r.mismatches, mismatches);
    r.detail = joinDetail(parts);
    return r;
}

}  // namespace

void summarize(const ExecEnv& env, const RunSink& sink, RunResult& result) {
    const bool runFailed = !result.error.empty();
    result.paramShapes = env.paramShapes;
    result.tpShapes = env.tpShapes;
    for (const auto& [rank, memory] : sink.memory()) result.memory.push_back(memory);
    for (const auto& d : env.plan->diagnostics)
        if (d.severity == Severity::Error) result.planErrors.push_back(d);
    bool ok = !runFailed && result.planErrors.empty();
    for (const auto& spec : env.scenario->params) {
        if (env.plan->isRejected(spec.index)) {
            result.notRun.push_back({spec.index, spec.name,
                                     "rejected by the planner (see the plan's error diagnostics)"});
            continue;
        }
        result.params.push_back(summarizeParam(env, sink, spec, runFailed));
        const auto& r = result.params.back();
        ok = ok && r.step == CheckVerdict::Exact && r.replicas == ReplicaVerdict::Identical &&
             (r.gather == GatherVerdict::Exact || r.gather == GatherVerdict::NotGathered);
    }
    for (const auto& tp : env.plan->tpTransitions) {
        TpRunResult t = summarizeTransition(env, sink, tp, runFailed);
        ok = ok && t.result == CheckVerdict::Exact;
        result.tpTransitions.push_back(std::move(t));
    }
    result.verified = ok;
}

}  // namespace hsdp
