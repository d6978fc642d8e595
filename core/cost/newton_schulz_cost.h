// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "cluster/cluster.h"
#include "types/scenario.h"

namespace hsdp {

// What Newton–Schulz on one k x l matrix costs on a device
// (docs/cost-model.md, "Newton–Schulz"): each step runs three products as
// newtonSchulz2d does (X·Xᵀ and A·A with a k x k result, B·X with a k x l
// one), each in `options.dtype` at that dtype's peak times the device's
// matmul efficiency, slowed where its result is too small to fill the device
// (matmul_saturation_elements) and with a fixed kernel overhead each.
double newtonSchulzSliceSeconds(const DeviceSpec& device, int64_t shortSide, int64_t longSide,
                                const NewtonSchulzOptions& options);

// The device's peak for products in `dtype` (F32, BF16, F16; F64 at the
// fp32 peak).
double peakFlopsFor(const DeviceSpec& device, DType dtype);

// The seconds of one product of `flops` FLOPs with `resultElements` outputs
// in `dtype` on `device`.
double matmulSeconds(const DeviceSpec& device, double flops, double resultElements, DType dtype);

}  // namespace hsdp
