// SPDX-License-Identifier: Apache-2.0
#include "tensor/dtype_codec.h"

#include "types/float16.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace hsdp {

float roundTo(DType dtype, float value) {
    switch (dtype) {
        case DType::BF16:
            return bf16ToFloat(floatToBf16(value));
        case DType::F16:
            return f16ToFloat(floatToF16(value));
        case DType::F32:
        case DType::F64:
            return value;  // an fp32 value is exact in f64
    }
    return value;
}

void encodeValues(DType dtype, const float* src, int64_t count, std::byte* dst) {
    switch (dtype) {
        case DType::F32:
            if (count > 0) std::memcpy(dst, src, size_t(count) * 4);  // src may be null when empty
            return;
        case DType::F64:
            for (int64_t i = 0; i < count; ++i) {
                double d = src[i];
                std::memcpy(dst + i * 8, &d, 8);
            }
            return;
        case DType::BF16:
        case DType::F16:
            for (int64_t i = 0; i < count; ++i) {
                uint16_t h = dtype == DType::BF16 ? floatToBf16(src[i]) : floatToF16(src[i]);
                std::memcpy(dst + i * 2, &h, 2);
            }
            return;
    }
}

void decodeValues(DType dtype, const std::byte* src, int64_t count, float* dst) {
    switch (dtype) {
        case DType::F32:
            if (count > 0) std::memcpy(dst, src, size_t(count) * 4);  // src may be null when empty
            return;
        case DType::F64:
            for (int64_t i = 0; i < count; ++i) {
                double d;
                std::memcpy(&d, src + i * 8, 8);
                dst[i] = static_cast<float>(d);
            }
            return;
        case DType::BF16:
        case DType::F16:
            for (int64_t i = 0; i < count; ++i) {
                uint16_t h;
                std::memcpy(&h, src + i * 2, 2);
                dst[i] = dtype == DType::BF16 ? bf16ToFloat(h) : f16ToFloat(h);
            }
            return;
    }
}

void fillPoison(std::byte* dst, int64_t bytes) {
    if (bytes > 0) std::memset(dst, 0xFF, size_t(bytes));
}

}  // namespace hsdp
