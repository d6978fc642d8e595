// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tensor/tensor.h"

namespace hsdp {

// A tensor as the fused all-gather hands it out: row-major, its elements in
// one or more runs of fp32 storage, in order, each run a whole number of
// dim-0 rows. A view's runs point into the gathered buffer itself (one run
// per member block, where the all-gather's rank-major layout put it) and
// share the buffer's ownership, so no byte is copied after the transfer.
// An owned tensor has a single run over storage of its own: the gather
// builds those only where rows had to be reordered (strided and nested
// shards), a gathered dim other than 0 moved back, or a 16-bit wire decoded.
// Copies share the storage; nothing writes through a GatheredTensor.
class GatheredTensor {
public:
    GatheredTensor() = default;
    explicit GatheredTensor(Tensor owned);
    // A view: `runs` lie in memory that `storage` keeps alive (a null
    // storage means the caller guarantees the memory outlives the view).
    GatheredTensor(std::vector<int64_t> shape, std::shared_ptr<const float> storage,
                   std::vector<std::span<const float>> runs);

    const std::vector<int64_t>& shape() const { return shape_; }
    int ndim() const { return static_cast<int>(shape_.size()); }
    int64_t numel() const;
    const std::vector<std::span<const float>>& runs() const { return runs_; }
    bool isView() const { return view_; }
    // What keeps the runs alive (for a view, the gathered buffer).
    const std::shared_ptr<const float>& storage() const { return storage_; }

    void copyTo(float* dst) const;  // numel() floats, row-major
    Tensor toTensor() const;        // a contiguous copy

private:
    std::vector<int64_t> shape_;
    std::shared_ptr<const float> storage_;
    std::vector<std::span<const float>> runs_;
    bool view_ = false;
};

// Same shape and same values bit for bit (NaN != NaN, as Tensor's ==).
bool operator==(const GatheredTensor& a, const Tensor& b);

}  // namespace hsdp
