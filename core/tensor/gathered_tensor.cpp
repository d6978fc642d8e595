// SPDX-License-Identifier: Apache-2.0
#include "tensor/gathered_tensor.h"

#include <algorithm>
#include <cstring>

namespace hsdp {

GatheredTensor::GatheredTensor(Tensor owned) : shape_(std::move(owned.shape)) {
    // The vector's heap block moves into shared storage, values untouched.
    auto holder = std::make_shared<const std::vector<float>>(std::move(owned.data));
    runs_.emplace_back(holder->data(), holder->size());
    storage_ = std::shared_ptr<const float>(holder, holder->data());
}

GatheredTensor::GatheredTensor(std::vector<int64_t> shape, std::shared_ptr<const float> storage,
                               std::vector<std::span<const float>> runs)
    : shape_(std::move(shape)), storage_(std::move(storage)), runs_(std::move(runs)), view_(true) {}

int64_t GatheredTensor::numel() const {
    int64_t n = 0;
    for (const auto& run : runs_) n += static_cast<int64_t>(run.size());
    return n;
}

void GatheredTensor::copyTo(float* dst) const {
    for (const auto& run : runs_) {
        if (!run.empty()) std::memcpy(dst, run.data(), run.size_bytes());
        dst += run.size();
    }
}

Tensor GatheredTensor::toTensor() const {
    Tensor t;
    t.shape = shape_;
    t.data.resize(static_cast<size_t>(numel()));
    copyTo(t.data.data());
    return t;
}

bool operator==(const GatheredTensor& a, const Tensor& b) {
    if (a.shape() != b.shape || a.numel() != b.numel()) return false;
    const float* next = b.data.data();
    for (const auto& run : a.runs()) {
        // Element-wise like std::vector<float>'s ==, so NaN never equals.
        if (!std::equal(run.begin(), run.end(), next)) return false;
        next += run.size();
    }
    return true;
}

}  // namespace hsdp
