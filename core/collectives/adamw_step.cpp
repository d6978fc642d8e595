// SPDX-License-Identifier: Apache-2.0
#include "collectives/adamw_step.h"

#include <cmath>
#include <stdexcept>

namespace hsdp {

void adamwMoments(const Tensor& grad, Tensor& firstMoment, Tensor& secondMoment) {
    firstMoment = Tensor(grad.shape);
    secondMoment = Tensor(grad.shape);
    for (size_t i = 0; i < grad.data.size(); ++i) {
        const float g = grad.data[i];
        firstMoment.data[i] = (1.0f - kAdamWBeta1) * g;
        secondMoment.data[i] = (1.0f - kAdamWBeta2) * g * g;
    }
}

Tensor adamwUpdate(const Tensor& firstMoment, const Tensor& secondMoment) {
    if (firstMoment.shape != secondMoment.shape)
        throw std::invalid_argument("adamwUpdate: the two moments differ in shape");
    Tensor update(firstMoment.shape);
    for (size_t i = 0; i < update.data.size(); ++i) {
        const float m = firstMoment.data[i] / (1.0f - kAdamWBeta1);
        const float v = secondMoment.data[i] / (1.0f - kAdamWBeta2);
        update.data[i] = m / (std::sqrt(v) + kAdamWEps);
    }
    return update;
}

double adamwUpdateBytesPerElement(DType dtype) {
    return 7.0 * double(dtypeSize(dtype));
}

}  // namespace hsdp
