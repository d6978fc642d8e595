// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to redistribute_*.cpp: one step as one rank runs it.

#include "redistribute/redistribute.h"
#include "tensor/tensor.h"
#include "types/geometry.h"

namespace hsdp::detail {

struct RedistributionStepRun {
    const RankRedistribution& redist;
    const RedistributionStep& step;
    int m;      // mesh dim
    int64_t n;  // its size

    int dimOf(const Placement& p) const { return normalizeDim(p.dim, int(redist.shape.size())); }
    Coord coordAt(int64_t j) const {
        Coord c = redist.coord;
        c[size_t(m)] = j;
        return c;
    }
    ShardLayout layout(const std::vector<Placement>& pl, const Coord& c) const {
        return shardLayout(redist.shape, pl, redist.mesh->shape, c);
    }
    Communicator& comm() const {
        return redist.ctx->group(redist.mesh->groupAlong(m, redist.coord));
    }
    CollectiveLabel label() const {
        CollectiveLabel l = redist.label;
        l.meshDim = m;
        return l;
    }
    // Mesh coordinate along m of each member, in group order.
    std::vector<int64_t> members(const Communicator& c) const {
        std::vector<int64_t> out;
        for (int r : c.ranks()) out.push_back(redist.mesh->coordinateOf(r).value()[size_t(m)]);
        return out;
    }
    // Averages of 16-bit values are not exact hop by hop; reduce those in fp32.
    DType reduceWire(ReduceOp op) const {
        return op == ReduceOp::Avg && dtypeSize(redist.dtype) == 2 ? DType::F32 : redist.dtype;
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

Tensor stepAllToAll(const RedistributionStepRun& s, const Tensor& local);
Tensor stepLocalChunk(const RedistributionStepRun& s, const Tensor& local);
Tensor stepLocalSplit(const RedistributionStepRun& s, const Tensor& local);
Tensor stepTorchChunk(const RedistributionStepRun& s, const Tensor& local);
Tensor stepConcatGather(const RedistributionStepRun& s, const Tensor& local);

}  // namespace hsdp::detail
