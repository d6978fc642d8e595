// SPDX-License-Identifier: Apache-2.0
#include "verify/truth.h"

#include "tensor/dtype_codec.h"

namespace hsdp {

float partialShare(float x, int64_t k, int64_t r, int64_t n, ReduceOp op) {
    auto small = [k](int64_t rr) { return float((k + 3 * rr) % 5 - 2) / 64.0f; };
    switch (op) {
        case ReduceOp::Sum: {
            if (r >= 1) return small(r);
            float others = 0.0f;
            for (int64_t rr = 1; rr < n; ++rr) others += small(rr);
            return x - others;
        }
        case ReduceOp::Product:
            return r == 0 ? x : 1.0f;
        case ReduceOp::Avg:
        case ReduceOp::Max:
        case ReduceOp::Min:
            return x;
    }
    return x;
}

Tensor globalTensor(const Truth& truth, const std::vector<int64_t>& shape) {
    Tensor t(shape);
    for (int64_t k = 0; k < t.numel(); ++k) t.data[size_t(k)] = truth.at(k);
    return t;
}

namespace {

// Global flat index of every local element, row-major over the local shape.
template <typename Fn>
void forEachLocal(const std::vector<int64_t>& globalShape, const ShardLayout& layout, Fn fn) {
    int nd = static_cast<int>(globalShape.size());
    std::vector<std::vector<int64_t>> globals(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) {
        for (const auto& r : layout.dims[d])
            for (int64_t g = r.begin; g < r.end; ++g) globals[d].push_back(g);
        if (globals[d].empty()) return;
    }
    auto strides = stridesOf(globalShape);
    std::vector<size_t> idx(static_cast<size_t>(nd), 0);
    int64_t local = 0;
    while (true) {
        int64_t k = 0;
        for (int d = 0; d < nd; ++d) k += globals[d][idx[d]] * strides[d];
        fn(local++, k);
        int d = nd - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < globals[d].size()) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

}  // namespace

Tensor localTensor(const Truth& truth, const std::vector<int64_t>& globalShape,
                   const std::vector<Placement>& placements, const std::vector<int64_t>& meshShape,
                   const Coord& coord, DType dtype) {
    ShardLayout layout = shardLayout(globalShape, placements, meshShape, coord);
    Tensor t(layout.localShape());
    forEachLocal(globalShape, layout, [&](int64_t local, int64_t k) {
        float v = truth.at(k);
        for (size_t m = 0; m < placements.size(); ++m)
            if (placements[m].isPartial())
                v = partialShare(v, k, coord[m], meshShape[m], placements[m].reduceOp);
        t.data[size_t(local)] = roundTo(dtype, v);
    });
    return t;
}

Tensor shardOf(const Tensor& global, const ShardLayout& layout) {
    Positions pos;
    for (size_t d = 0; d < layout.dims.size(); ++d)
        pos.push_back(positionsIn(IndexSet{IndexRange{0, global.shape[d]}}, layout.dims[d]));
    return extract(global, pos);
}

}  // namespace hsdp
