// SPDX-License-Identifier: Apache-2.0
#include "plan/redistribution.h"

#include "types/geometry.h"

namespace hsdp {

std::string_view redistributionOpName(RedistributionOp op) {
    using Op = RedistributionOp;
    switch (op) {
        case Op::AllGather:
            return "all_gather";
        case Op::AllReduce:
            return "all_reduce";
        case Op::ReduceScatter:
            return "reduce_scatter";
        case Op::AllToAll:
            return "all_to_all";
        case Op::LocalChunk:
            return "local_chunk";
        case Op::LocalSplit:
            return "local_split";
    }
    return "?";
}

namespace {

using Op = RedistributionOp;

struct RedistributionPlanner {
    std::vector<Placement> current;
    int ndim;
    std::vector<RedistributionStep> steps;

    int dimOf(const Placement& p) const { return normalizeDim(p.dim, ndim); }

    void push(Op op, int m, const Placement& to) {
        RedistributionStep s{op, m, current, current};
        s.after[size_t(m)] = to;
        steps.push_back(s);
        current[size_t(m)] = to;
    }

    // Would a later mesh dim make a direct step at m wrong?
    bool conflictsLater(int m, const Placement& from, const Placement& to) const {
        for (size_t l = size_t(m) + 1; l < current.size(); ++l) {
            const Placement& p = current[l];
            if (p.isShard() && ((from.isShard() && dimOf(from) == dimOf(p)) ||
                                (to.isShard() && dimOf(to) == dimOf(p))))
                return true;
            if (p.isPartial() && (from.isPartial() || to.isPartial())) return true;
        }
        return false;
    }

    void toReplicate(int m) {
        const Placement& from = current[size_t(m)];
        if (from.isShard())
            push(Op::AllGather, m, Placement::replicate());
        else if (from.isPartial())
            push(Op::AllReduce, m, Placement::replicate());
    }

    void fromReplicate(int m, const Placement& to) {
        if (to.isShard())
            push(Op::LocalChunk, m, to);
        else if (to.isPartial())
            push(Op::LocalSplit, m, to);
    }

    void convert(int m, const Placement& to) {
        const Placement from = current[size_t(m)];
        if (from.isShard() && to.isReplicate()) return push(Op::AllGather, m, to);
        if (from.isPartial() && to.isReplicate()) return push(Op::AllReduce, m, to);
        if (from.isPartial() && to.isShard()) return push(Op::ReduceScatter, m, to);
        if (from.isReplicate()) return fromReplicate(m, to);
        if (from.isShard() && to.isShard() && dimOf(from) != dimOf(to))
            return push(Op::AllToAll, m, to);
        toReplicate(m);
        fromReplicate(m, to);
    }

    void convertDim(int m, const Placement& to) {
        if (!conflictsLater(m, current[size_t(m)], to)) return convert(m, to);
        const std::vector<Placement> saved = current;
        for (int l = int(current.size()) - 1; l > m; --l) toReplicate(l);
        convert(m, to);
        for (size_t l = size_t(m) + 1; l < current.size(); ++l)
            if (!saved[l].isReplicate()) fromReplicate(int(l), saved[l]);
    }
};

}  // namespace

std::vector<RedistributionStep> planRedistribution(const std::vector<Placement>& src,
                                                   const std::vector<Placement>& dst,
                                                   int tensorNdim) {
    RedistributionPlanner planner{src, tensorNdim, {}};
    for (int m = int(src.size()) - 1; m >= 0; --m)
        if (!(planner.current[size_t(m)] == dst[size_t(m)])) planner.convertDim(m, dst[size_t(m)]);
    return planner.steps;
}

}  // namespace hsdp
