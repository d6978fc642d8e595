// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "types/geometry.h"

namespace hsdp {

// A small dense row-major fp32 tensor. Every value of the run is exact in the
// parameter's dtype, so fp32 storage loses nothing; the wire uses the real width.
struct Tensor {
    std::vector<int64_t> shape;
    std::vector<float> data;

    Tensor() = default;
    explicit Tensor(std::vector<int64_t> shape, float fill = 0.0f);
    int64_t numel() const { return static_cast<int64_t>(data.size()); }
    int ndim() const { return static_cast<int>(shape.size()); }
    bool operator==(const Tensor&) const = default;  // bitwise-ish: NaN != NaN
};

std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape);

// Per tensor dim, a list of positions along that dim.
using Positions = std::vector<std::vector<int64_t>>;

// All positions 0..n-1.
std::vector<int64_t> iota(int64_t n);
// For each global index of `want` (in want's order), its local position in
// `have` (a rank's IndexSet, local order). Throws std::out_of_range when `want`
// holds an index that `have` lacks.
std::vector<int64_t> positionsIn(const IndexSet& have, const IndexSet& want);
Positions positionsIn(const std::vector<IndexSet>& have, const std::vector<IndexSet>& want);

// The sub-block of `src` at the cartesian product of `pos` (shape = sizes of pos).
Tensor extract(const Tensor& src, const Positions& pos);
// Writes `block` into `dst` at the cartesian product of `pos`.
void insert(Tensor& dst, const Positions& pos, const Tensor& block);

// Dims reordered: out.shape[i] = t.shape[perm[i]].
Tensor permute(const Tensor& t, const std::vector<int>& perm);
// Tensor dim `d` moved to the front (torch movedim(d, 0)) and back (movedim(0, d)).
Tensor movedimTo0(const Tensor& t, int d);
Tensor movedimFrom0(const Tensor& t, int d);
// torch narrow: positions [start, start+len) along `dim`.
Tensor narrow(const Tensor& t, int dim, int64_t start, int64_t len);

// The multi-index of a row-major flat index.
std::vector<int64_t> unflatIndex(const std::vector<int64_t>& shape, int64_t flat);

}  // namespace hsdp
