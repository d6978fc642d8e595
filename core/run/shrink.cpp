// SPDX-License-Identifier: Apache-2.0
#include "run/shrink.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "collectives/newton_schulz.h"
#include "types/geometry.h"

namespace hsdp {

std::vector<std::vector<int64_t>> shardDivisors(const std::vector<Placement>& placements,
                                                const std::vector<int64_t>& meshShape, int ndim) {
    std::vector<int64_t> meshProduct(size_t(ndim), 1), withSplit(size_t(ndim), 1);
    for (size_t m = 0; m < placements.size() && m < meshShape.size(); ++m) {
        const Placement& p = placements[m];
        if (!p.isShard()) continue;
        const int d = normalizeDim(p.dim, ndim);
        if (d < 0 || d >= ndim) continue;
        meshProduct[size_t(d)] *= meshShape[m];
        withSplit[size_t(d)] *=
            meshShape[m] * (p.kind == Placement::Kind::StridedShard ? p.splitFactor : 1);
    }
    std::vector<std::vector<int64_t>> out(static_cast<size_t>(ndim));
    for (int d = 0; d < ndim; ++d) {
        if (meshProduct[size_t(d)] > 1) out[size_t(d)].push_back(meshProduct[size_t(d)]);
        if (withSplit[size_t(d)] > meshProduct[size_t(d)])
            out[size_t(d)].push_back(withSplit[size_t(d)]);
    }
    return out;
}

int64_t shrinkDim(int64_t size, int64_t factor, const std::vector<int64_t>& divisors) {
    if (factor <= 1) return size;
    int64_t floor = 1;
    for (auto d : divisors) floor = std::max(floor, d);
    if (size <= floor) return size;
    auto sameDivisibility = [&](int64_t v) {
        for (auto d : divisors)
            if ((v % d == 0) != (size % d == 0)) return false;
        return true;
    };
    const int64_t want = std::max<int64_t>(floor, (size + factor / 2) / factor);
    for (int64_t delta = 0; delta <= size; ++delta) {
        for (int64_t v : {want - delta, want + delta})
            if (v >= floor && v <= size && sameDivisibility(v)) return v;
    }
    return size;
}

namespace {

std::vector<int64_t> shrinkShape(const std::vector<int64_t>& shape, int64_t factor,
                                 const std::vector<std::vector<int64_t>>& divisors) {
    std::vector<int64_t> out;
    for (size_t d = 0; d < shape.size(); ++d)
        out.push_back(shrinkDim(shape[d], factor, divisors[d]));
    return out;
}

// Per param: (ranks per local copy, shard group size, computing shard groups, gathered).
struct ParamReach {
    double replicas = 1, shardGroup = 1, computeGroups = 1;
    bool gathered = false, plain = false;
};

ParamReach reachOf(const Scenario& s, const Plan& plan, const ParamSpec& spec) {
    ParamReach r;
    if (!spec.placements) {
        r.plain = true;
        r.replicas = s.worldSize;
        return r;
    }
    const Group* g = plan.groupOf(spec.index);
    const Mesh* mesh = s.findMesh(spec.mesh);
    if (spec.isAdamW() && mesh) {  // every rank of its mesh holds a shard, no one gathers
        for (size_t m = 0; m < spec.placements->size() && m < mesh->shape.size(); ++m)
            if (!(*spec.placements)[m].isReplicate()) r.shardGroup *= double(mesh->shape[m]);
        r.replicas = double(mesh->size()) / r.shardGroup;
        return r;
    }
    if (!g || !mesh) return r;
    for (int m : g->shardMeshDims) r.shardGroup *= double(mesh->shape[size_t(m)]);
    r.replicas = double(mesh->size()) / r.shardGroup;
    for (const auto& b : g->batches) {
        if (std::find(b.params.begin(), b.params.end(), spec.index) == b.params.end()) continue;
        r.gathered = b.isShard;
        double reduced = 1;
        for (auto x : b.replicateSizes) reduced *= double(x);
        r.computeGroups = r.replicas / std::max(1.0, reduced);
    }
    return r;
}

}  // namespace

int64_t estimateRunBytes(const Scenario& scenario, const Plan& plan,
                         const std::vector<std::vector<int64_t>>& paramShapes,
                         const std::vector<std::vector<int64_t>>& tpShapes) {
    double total = 0;
    for (const auto& spec : scenario.params) {
        const double numel = double(shapeNumel(paramShapes[size_t(spec.index)]));
        const double es = dtypeSize(spec.dtype);
        const ParamReach r = reachOf(scenario, plan, spec);
        total +=
            numel * (2 * 4 + 2 * es) * r.replicas;  // grad + weight (fp32) + broadcast payloads
        total += numel * 4 * 4;                     // single-device G, U, W, W'
        if (r.gathered) total += numel * (4 * 4 + 2 * es) * r.shardGroup * r.computeGroups;
    }
    for (const auto& tp : scenario.tpTransitions) {
        const Mesh* mesh = scenario.findMesh(tp.mesh);
        total += double(shapeNumel(tpShapes[size_t(tp.index)])) * 4 * 4 *
                 double(mesh ? mesh->size() : 1);
    }
    return int64_t(std::min(total, 9.0e18));
}

double estimateRunFlops(const Scenario& scenario, const Plan& plan,
                        const std::vector<std::vector<int64_t>>& paramShapes) {
    double total = 0;
    for (const auto& spec : scenario.params) {
        if (!spec.requiresGrad || spec.isAdamW()) continue;  // AdamW: elementwise, no NS
        const double f = newtonSchulzBudgetFlops(paramShapes[size_t(spec.index)]);
        const ParamReach r = reachOf(scenario, plan, spec);
        const double computing = r.plain      ? r.replicas
                                 : r.gathered ? r.computeGroups
                                              : r.computeGroups * r.shardGroup;
        total += f * (1 + computing);  // the reference plus every computing owner
    }
    return total;
}

namespace {

struct Sized {
    std::vector<std::vector<int64_t>> params, tps;
};

Sized shapesAt(const Scenario& s, int64_t factor) {
    Sized out;
    for (const auto& spec : s.params) {
        const Mesh* mesh = s.findMesh(spec.mesh);
        const int nd = spec.ndim();
        auto div = spec.placements && mesh ? shardDivisors(*spec.placements, mesh->shape, nd)
                                           : std::vector<std::vector<int64_t>>(size_t(nd));
        out.params.push_back(shrinkShape(spec.shape, factor, div));
    }
    for (const auto& tp : s.tpTransitions) {
        const Mesh* mesh = s.findMesh(tp.mesh);
        const int nd = int(tp.shape.size());
        std::vector<std::vector<int64_t>> div(static_cast<size_t>(nd));
        if (mesh)
            for (const auto* pl : {&tp.src, &tp.dst}) {
                auto more = shardDivisors(*pl, mesh->shape, nd);
                for (int d = 0; d < nd; ++d)
                    div[size_t(d)].insert(div[size_t(d)].end(), more[size_t(d)].begin(),
                                          more[size_t(d)].end());
            }
        out.tps.push_back(shrinkShape(tp.shape, factor, div));
    }
    return out;
}

// Why the run shrank, in words a reader of the run line needs: what the real
// shapes would hold in this one process (every rank's tensors) against which
// budget, and what the shrink brought it to.
std::string shrinkReason(const ShrinkInfo& info, int64_t maxBytes, double flopBudget) {
    std::vector<std::string> why;
    if (info.bytesBefore > maxBytes)
        why.push_back("buffers " + humanBytes(double(info.bytesBefore)) +
                      " (every rank's tensors at the real shapes, held in this one process) > "
                      "--max-bytes " +
                      humanBytes(double(maxBytes)));
    if (info.flopsBefore > flopBudget) {
        char buf[128];
        std::snprintf(buf, sizeof buf,
                      "Newton-Schulz %.2g flop at the real shapes > --max-flops %.2g",
                      info.flopsBefore, flopBudget);
        why.push_back(buf);
    }
    std::string reason;
    for (size_t i = 0; i < why.size(); ++i) reason += (i ? "; " : "") + why[i];
    char after[96];
    std::snprintf(after, sizeof after, "%s, %.2g flop", humanBytes(double(info.bytesAfter)).c_str(),
                  info.flopsAfter);
    return reason + ": every dim divided by " + std::to_string(info.factor) +
           " (sharded dims keep their divisibility), so the run holds " + after;
}

}  // namespace

ShrinkDecision shrinkAtFactor(const Scenario& scenario, int64_t factor) {
    Sized sz = shapesAt(scenario, factor);
    return {sz.params, sz.tps, std::nullopt};
}

ShrinkDecision decideShrink(const Scenario& scenario, const Plan& plan, int64_t maxBytes,
                            double flopBudget) {
    auto fits = [&](const Sized& sz) {
        return estimateRunBytes(scenario, plan, sz.params, sz.tps) <= maxBytes &&
               estimateRunFlops(scenario, plan, sz.params) <= flopBudget;
    };
    Sized real = shapesAt(scenario, 1);
    ShrinkDecision d{real.params, real.tps, std::nullopt};
    if (fits(real)) return d;
    int64_t hi = 2;
    while (hi < (int64_t(1) << 40) && !fits(shapesAt(scenario, hi))) hi *= 2;
    int64_t lo = hi / 2;  // does not fit
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(shapesAt(scenario, mid)) ? hi : lo) = mid;
    }
    Sized small = shapesAt(scenario, hi);
    ShrinkInfo info;
    info.factor = hi;
    info.bytesBefore = estimateRunBytes(scenario, plan, real.params, real.tps);
    info.bytesAfter = estimateRunBytes(scenario, plan, small.params, small.tps);
    info.flopsBefore = estimateRunFlops(scenario, plan, real.params);
    info.flopsAfter = estimateRunFlops(scenario, plan, small.params);
    info.reason = shrinkReason(info, maxBytes, flopBudget);
    d.paramShapes = small.params;
    d.tpShapes = small.tps;
    d.info = info;
    return d;
}

}  // namespace hsdp
