// SPDX-License-Identifier: Apache-2.0
#include "cost/newton_schulz_cost.h"

#include <algorithm>

namespace hsdp {

double peakFlopsFor(const DeviceSpec& device, DType dtype) {
    switch (dtype) {
        case DType::BF16:
            return device.peakFlops.bfloat16;
        case DType::F16:
            return device.peakFlops.float16;
        case DType::F32:
        case DType::F64:
            break;
    }
    return device.peakFlops.float32;
}

double matmulSeconds(const DeviceSpec& device, double flops, double resultElements, DType dtype) {
    double rate = peakFlopsFor(device, dtype) * device.achievedMatmulEfficiency();
    if (device.matmulSaturationElements > 0)
        rate *= std::min(1.0, resultElements / device.matmulSaturationElements);
    if (rate <= 0) return 0;
    return device.kernelOverheadSeconds + flops / rate;
}

double newtonSchulzSliceSeconds(const DeviceSpec& device, int64_t shortSide, int64_t longSide,
                                const NewtonSchulzOptions& options) {
    if (shortSide <= 0) return 0;
    const double k = double(shortSide), l = double(longSide);
    const double square = matmulSeconds(device, 2 * k * k * l, k * k, options.dtype) +  // X·Xᵀ
                          matmulSeconds(device, 2 * k * k * k, k * k, options.dtype);   // A·A
    const double wide = matmulSeconds(device, 2 * k * k * l, k * l, options.dtype);     // B·X
    return double(options.steps) * (square + wide);
}

}  // namespace hsdp
