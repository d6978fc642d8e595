// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "tensor/tensor.h"
#include "types/dtype.h"

namespace hsdp {

// The step of a param whose optimizer is AdamW (params[].optimizer "adamw";
// docs/run.md §2): its first step from zero moments, elementwise, so a rank
// updates its own shard with no communication. m = (1 - β1)·G and
// v = (1 - β2)·G², bias-corrected, give update = m̂ / (sqrt(v̂) + ε), about
// sign(G); no weight decay (the runner applies param -= lr·update as for
// Muon). The distributed run and the single-device reference both call
// these, element by element, so equal inputs give bit-identical outputs.
inline constexpr float kAdamWBeta1 = 0.9f;
inline constexpr float kAdamWBeta2 = 0.95f;
inline constexpr float kAdamWEps = 1e-8f;

// The two moments after the first step, fresh tensors of grad's shape.
void adamwMoments(const Tensor& grad, Tensor& firstMoment, Tensor& secondMoment);
// The update from the two moments (bias-corrected), elementwise.
Tensor adamwUpdate(const Tensor& firstMoment, const Tensor& secondMoment);

// Bytes the update moves per element of a `dtype` param: the grad read, the
// two moments read and written, the param read and written (7 x its size).
double adamwUpdateBytesPerElement(DType dtype);

}  // namespace hsdp
