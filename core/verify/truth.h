// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/tensor.h"
#include "types/dtype.h"
#include "types/mesh.h"
#include "types/placement.h"

namespace hsdp {

// docs/run.md §1: the data every rank can compute without communication, from the
// row-major flat index k of the global shape. Exact in bf16, f16 and f32.
struct Truth {
    enum class Kind { Grad, Weight, Tp };
    Kind kind = Kind::Grad;
    int index = 0;  // parameter index p or transition index t

    static Truth grad(int p) { return {Kind::Grad, p}; }
    static Truth weight(int p) { return {Kind::Weight, p}; }
    static Truth tp(int t) { return {Kind::Tp, t}; }

    float at(int64_t k) const {
        switch (kind) {
            case Kind::Grad:
                return float((int64_t(index) * 131 + k * 7) % 251 - 125) / 64.0f;
            case Kind::Weight:
                return float((int64_t(index) * 17 + k * 3) % 61 - 30) / 16.0f;
            case Kind::Tp:
                return float((int64_t(index) * 29 + k * 11) % 197 - 98) / 64.0f;
        }
        return 0.0f;
    }
};

// What group rank `r` of `n` holds of the value `x` (global flat index `k`)
// under a Partial(op): sum splits exactly (rank r >= 1 holds ((k+3r) mod 5 - 2)/64,
// rank 0 the rest); max/min/avg: every rank the value; product: rank 0 the
// value, the others 1.
float partialShare(float x, int64_t k, int64_t r, int64_t n, ReduceOp op);

// The whole global tensor of `truth`.
Tensor globalTensor(const Truth& truth, const std::vector<int64_t>& shape);

// The local tensor of the rank at `coord`: the geometry of `placements`
// (types/geometry.h), Partial dims split left to right, values rounded to `dtype`.
Tensor localTensor(const Truth& truth, const std::vector<int64_t>& globalShape,
                   const std::vector<Placement>& placements, const std::vector<int64_t>& meshShape,
                   const Coord& coord, DType dtype);

// The same for an already-known global tensor (e.g. the single-device result):
// the rank's shard, no partial splitting (a result is never partial).
Tensor shardOf(const Tensor& global, const ShardLayout& layout);

}  // namespace hsdp
