// SPDX-License-Identifier: Apache-2.0
#include "cost/detail/tp_collective.h"

#include "redistribute/redistribute.h"
#include "types/geometry.h"

namespace hsdp {

namespace {

int64_t productExcept(const std::vector<int64_t>& shape, int skipA, int skipB = -1) {
    int64_t n = 1;
    for (int k = 0; k < int(shape.size()); ++k)
        if (k != skipA && k != skipB) n *= shape[size_t(k)];
    return n;
}

// What the reduction computes in: redistribute_exec's reduceWire (an
// average of 2-byte values in fp32).
DType reduceWire(DType dtype, ReduceOp op) {
    return op == ReduceOp::Avg && dtypeSize(dtype) == 2 ? DType::F32 : dtype;
}

}  // namespace

ScheduledCollective tpStepCollective(const TpTransition& spec, const Mesh& mesh,
                                     const std::vector<int64_t>& shape,
                                     const RedistributionStep& step, const Coord& coord) {
    const int m = step.meshDim;
    const int64_t n = mesh.shape[size_t(m)];
    const int ndim = int(shape.size());
    auto layoutAt = [&](const std::vector<Placement>& pl, int64_t j) {
        Coord c = coord;
        c[size_t(m)] = j;
        return shardLayout(shape, pl, mesh.shape, c);
    };
    auto widestAlong = [&](const std::vector<Placement>& pl, int d) {
        int64_t widest = 0;
        for (int64_t j = 0; j < n; ++j)
            widest = std::max(widest, indexCount(layoutAt(pl, j).dims[size_t(d)]));
        return widest;
    };
    const auto local = shardLayout(shape, step.before, mesh.shape, coord).localShape();
    int es = dtypeSize(spec.dtype);
    ScheduledCollective c;
    switch (step.op) {
        case RedistributionOp::AllGather: {
            const int d = normalizeDim(step.before[size_t(m)].dim, ndim);
            c.op = CollectiveOp::AllGather;
            c.sizeBytes = widestAlong(step.before, d) * productExcept(local, d) * es * n;
            break;
        }
        case RedistributionOp::AllReduce: {
            c.reduction = reduceWire(spec.dtype, step.before[size_t(m)].reduceOp);
            es = dtypeSize(*c.reduction);
            c.op = CollectiveOp::AllReduce;
            c.sizeBytes = shapeNumel(local) * es;
            break;
        }
        case RedistributionOp::ReduceScatter: {
            const int d = normalizeDim(step.after[size_t(m)].dim, ndim);
            c.reduction = reduceWire(spec.dtype, step.before[size_t(m)].reduceOp);
            es = dtypeSize(*c.reduction);
            c.op = CollectiveOp::ReduceScatter;
            c.sizeBytes = widestAlong(step.after, d) * productExcept(local, d) * es * n;
            break;
        }
        case RedistributionOp::AllToAll: {
            const int i = normalizeDim(step.before[size_t(m)].dim, ndim);
            const int j = normalizeDim(step.after[size_t(m)].dim, ndim);
            c.op = CollectiveOp::AllToAll;
            c.sizeBytes = widestAlong(step.before, i) * widestAlong(step.after, j) *
                          productExcept(local, i, j) * es * n;
            break;
        }
        case RedistributionOp::LocalChunk:
        case RedistributionOp::LocalSplit:
            break;  // never here: they do not communicate
    }
    return c;
}

}  // namespace hsdp
