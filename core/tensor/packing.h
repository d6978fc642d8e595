// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/trace.h"
#include "tensor/tensor.h"
#include "types/dtype.h"

namespace hsdp {

// The reference's alignment rule: alignment_elements = max(1, alignment_bytes /
// element_size); a segment of n elements takes ceil(n / a) * a elements.
int64_t alignmentElements(int64_t alignmentBytes, int elementSize);
int64_t paddedElements(int64_t numel, int64_t alignmentBytes, int elementSize);

// One fused buffer: per item its byte offset, payload and capacity.
struct PackLayout {
    std::vector<int64_t> offset;    // bytes from the slot start
    std::vector<int64_t> length;    // payload bytes of this rank
    std::vector<int64_t> capacity;  // bytes reserved (payload + padding)
    int64_t total = 0;              // bytes of one slot

    // Trace segments for `params` (one per item).
    std::vector<BufferSegment> segments(const std::vector<int>& params) const;
};

// Consecutive segments with the given capacities (already padded).
PackLayout packLayout(const std::vector<int64_t>& lengths, const std::vector<int64_t>& capacities);

// Encodes `t` in `dtype` at `dst` (numel * size bytes).
void encodeTensor(const Tensor& t, DType dtype, std::byte* dst);
// Decodes `shape` elements of `dtype` from `src`.
Tensor decodeTensor(const std::byte* src, DType dtype, std::vector<int64_t> shape);

// A byte buffer whose every byte starts as poison (padding is never zeroed).
std::vector<std::byte> poisonBuffer(int64_t bytes);

}  // namespace hsdp
