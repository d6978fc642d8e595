// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

#include "types/dtype.h"
#include "types/placement.h"

namespace hsdp {

// Element-wise `out = a (op) b` over `count` elements of `dtype`, the shape of
// a Gloo reduce function (`out` may alias `a` or `b`). 16-bit types are
// widened to fp32, combined, and rounded back (nearest even) per call, which
// is what a bf16/f16 all-reduce does at every hop. Avg combines as a sum; the
// caller divides once at the end (see divideElements).
void reduceElements(DType dtype, ReduceOp op, void* out, const void* a, const void* b,
                    size_t count);

// `buffer[i] /= divisor`, in fp32 for the 16-bit types (rounded back once).
void divideElements(DType dtype, void* buffer, size_t count, int divisor);

// `out = blocks[0] (op) blocks[1] (op) ...` in block order, accumulating in
// fp32 (fp64 for f64) and rounding a 16-bit result once at the end. Avg
// divides the sum by the number of blocks. Used by the reduce-scatter, which
// reduces locally after an all-to-all.
void reduceBlocks(DType dtype, ReduceOp op, void* out, const void* const* blocks, size_t blockCount,
                  size_t count);

}  // namespace hsdp
