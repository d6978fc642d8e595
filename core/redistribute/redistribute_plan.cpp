#include "redistribute/redistribute.h"

#include "model/geometry.h"

namespace hsdp {

std::string_view redistStepName(RedistStep::Kind kind) {
    using K = RedistStep::Kind;
    switch (kind) {
        case K::AllGather:
            return "all_gather";
        case K::AllReduce:
            return "all_reduce";
        case K::ReduceScatter:
            return "reduce_scatter";
        case K::AllToAll:
            return "all_to_all";
        case K::LocalChunk:
            return "local_chunk";
        case K::LocalSplit:
            return "local_split";
        case K::ConcatGather:
            return "all_gather_concat";
        case K::TorchChunk:
            return "torch_chunk";
        case K::EqualReduceScatter:
            return "reduce_scatter_equal";
    }
    return "?";
}

namespace {

using K = RedistStep::Kind;

struct Planner {
    std::vector<Placement> cur;
    int ndim;
    std::vector<RedistStep> steps;

    int dimOf(const Placement& p) const { return normalizeDim(p.dim, ndim); }

    void push(K kind, int m, const Placement& to) {
        RedistStep s{kind, m, cur, cur};
        s.after[size_t(m)] = to;
        steps.push_back(s);
        cur[size_t(m)] = to;
    }

    // Would a later mesh dim make a direct step at m wrong?
    bool conflictsLater(int m, const Placement& from, const Placement& to) const {
        for (size_t l = size_t(m) + 1; l < cur.size(); ++l) {
            const Placement& p = cur[l];
            if (p.isShard() && ((from.isShard() && dimOf(from) == dimOf(p)) ||
                                (to.isShard() && dimOf(to) == dimOf(p))))
                return true;
            if (p.isPartial() && (from.isPartial() || to.isPartial())) return true;
        }
        return false;
    }

    void toReplicate(int m) {
        const Placement& from = cur[size_t(m)];
        if (from.isShard())
            push(K::AllGather, m, Placement::replicate());
        else if (from.isPartial())
            push(K::AllReduce, m, Placement::replicate());
    }

    void fromReplicate(int m, const Placement& to) {
        if (to.isShard())
            push(K::LocalChunk, m, to);
        else if (to.isPartial())
            push(K::LocalSplit, m, to);
    }

    void convert(int m, const Placement& to) {
        const Placement from = cur[size_t(m)];
        if (from.isShard() && to.isReplicate()) return push(K::AllGather, m, to);
        if (from.isPartial() && to.isReplicate()) return push(K::AllReduce, m, to);
        if (from.isPartial() && to.isShard()) return push(K::ReduceScatter, m, to);
        if (from.isReplicate()) return fromReplicate(m, to);
        if (from.isShard() && to.isShard() && dimOf(from) != dimOf(to))
            return push(K::AllToAll, m, to);
        toReplicate(m);
        fromReplicate(m, to);
    }

    void convertDim(int m, const Placement& to) {
        if (!conflictsLater(m, cur[size_t(m)], to)) return convert(m, to);
        const std::vector<Placement> saved = cur;
        for (int l = int(cur.size()) - 1; l > m; --l) toReplicate(l);
        convert(m, to);
        for (size_t l = size_t(m) + 1; l < cur.size(); ++l)
            if (!saved[l].isReplicate()) fromReplicate(int(l), saved[l]);
    }
};

}  // namespace

std::vector<RedistStep> planRedistribution(const std::vector<Placement>& src,
                                           const std::vector<Placement>& dst, int tensorNdim) {
    Planner planner{src, tensorNdim, {}};
    for (int m = int(src.size()) - 1; m >= 0; --m)
        if (!(planner.cur[size_t(m)] == dst[size_t(m)])) planner.convertDim(m, dst[size_t(m)]);
    return planner.steps;
}

std::vector<RedistStep> loweredSteps(const std::string& op, int tpDim,
                                     const std::vector<Placement>& src,
                                     const std::vector<Placement>& dst, bool reference) {
    auto step = [&](K kind, std::vector<Placement> before, std::vector<Placement> after) {
        return RedistStep{kind, tpDim, std::move(before), std::move(after)};
    };
    std::vector<Placement> mid = src;  // after the reduction: R on the tp dim
    mid[size_t(tpDim)] = Placement::replicate();
    if (op == "all_gather") return {step(reference ? K::ConcatGather : K::AllGather, src, dst)};
    if (op == "all_reduce") return {step(K::AllReduce, src, dst)};
    if (op == "reduce_scatter")
        return {step(reference ? K::EqualReduceScatter : K::ReduceScatter, src, dst)};
    if (op == "all_reduce_shard")
        return {step(K::AllReduce, src, mid),
                step(reference ? K::TorchChunk : K::LocalChunk, mid, dst)};
    throw std::invalid_argument("unknown lowered TP op '" + op + "'");
}

}  // namespace hsdp
