#pragma once

// Internal to redistribute_*.cpp: one step as one rank runs it.

#include "model/geometry.h"
#include "redistribute/redistribute.h"
#include "tensor/tensor.h"

namespace hsdp::detail {

struct StepRun {
    const RedistContext& rc;
    const RedistStep& step;
    int m;      // mesh dim
    int64_t n;  // its size

    int dimOf(const Placement& p) const { return normalizeDim(p.dim, int(rc.shape.size())); }
    Coord coordAt(int64_t j) const {
        Coord c = rc.coord;
        c[size_t(m)] = j;
        return c;
    }
    ShardLayout layout(const std::vector<Placement>& pl, const Coord& c) const {
        return shardLayout(rc.shape, pl, rc.mesh->shape, c);
    }
    Communicator& comm() const { return rc.ctx->group(rc.mesh->groupAlong(m, rc.coord)); }
    CollectiveLabel label() const {
        CollectiveLabel l = rc.label;
        l.meshDim = m;
        return l;
    }
    // Mesh coordinate along m of each member, in group order.
    std::vector<int64_t> members(const Communicator& c) const {
        std::vector<int64_t> out;
        for (int r : c.ranks()) out.push_back(rc.mesh->coordinateOf(r).value()[size_t(m)]);
        return out;
    }
    // Averages of 16-bit values are not exact hop by hop; reduce those in fp32.
    DType reduceWire(ReduceOp op) const {
        return op == ReduceOp::Avg && dtypeSize(rc.dtype) == 2 ? DType::F32 : rc.dtype;
    }
};

inline std::vector<int64_t> withDim(std::vector<int64_t> shape, int d, int64_t v) {
    shape[size_t(d)] = v;
    return shape;
}

inline Positions allPositions(const std::vector<int64_t>& shape) {
    Positions pos;
    for (auto s : shape) pos.push_back(iota(s));
    return pos;
}

Tensor stepAllToAll(const StepRun& s, const Tensor& local);
Tensor stepLocalChunk(const StepRun& s, const Tensor& local);
Tensor stepLocalSplit(const StepRun& s, const Tensor& local);
Tensor stepTorchChunk(const StepRun& s, const Tensor& local);
Tensor stepConcatGather(const StepRun& s, const Tensor& local);

}  // namespace hsdp::detail
