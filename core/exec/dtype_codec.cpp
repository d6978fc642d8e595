#include "exec/dtype_codec.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace hsdp {

uint16_t floatToBfloat16Bits(float value) {
    uint32_t x = std::bit_cast<uint32_t>(value);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
    x += 0x7FFFu + ((x >> 16) & 1u);  // round to nearest, ties to even
    return static_cast<uint16_t>(x >> 16);
}

float bfloat16BitsToFloat(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }

uint16_t floatToHalfBits(float value) {
    uint32_t x = std::bit_cast<uint32_t>(value);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7FFFFFFFu;
    if (absx >= 0x7F800000u)  // inf or NaN (NaN stays quiet NaN)
        return static_cast<uint16_t>(sign | (absx > 0x7F800000u ? 0x7E00u : 0x7C00u));
    if (absx >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to inf
    if (absx < 0x38800000u) {
        // Below the smallest normal: the value in units of 2^-24, rounded to
        // nearest even by the default FP rounding mode.
        float scaled = std::fabs(value) * 16777216.0f;
        return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
    }
    uint32_t exp = (absx >> 23) - 127 + 15;
    uint32_t mant = absx & 0x7FFFFFu;
    uint32_t h = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
    return static_cast<uint16_t>(sign | h);
}

float halfBitsToFloat(uint16_t bits) {
    uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    uint32_t exp = (bits >> 10) & 0x1Fu;
    uint32_t mant = bits & 0x3FFu;
    if (exp == 0) {
        float v = std::ldexp(static_cast<float>(mant), -24);
        return sign ? -v : v;
    }
    if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));
    return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

float roundTo(DType dtype, float value) {
    switch (dtype) {
        case DType::BF16: return bfloat16BitsToFloat(floatToBfloat16Bits(value));
        case DType::F16: return halfBitsToFloat(floatToHalfBits(value));
        case DType::F32:
        case DType::F64: return value;  // an fp32 value is exact in f64
    }
    return value;
}

void encodeValues(DType dtype, const float* src, int64_t count, std::byte* dst) {
    switch (dtype) {
        case DType::F32: std::memcpy(dst, src, size_t(count) * 4); return;
        case DType::F64:
            for (int64_t i = 0; i < count; ++i) {
                double d = src[i];
                std::memcpy(dst + i * 8, &d, 8);
            }
            return;
        case DType::BF16:
        case DType::F16:
            for (int64_t i = 0; i < count; ++i) {
                uint16_t h = dtype == DType::BF16 ? floatToBfloat16Bits(src[i]) : floatToHalfBits(src[i]);
                std::memcpy(dst + i * 2, &h, 2);
            }
            return;
    }
}

void decodeValues(DType dtype, const std::byte* src, int64_t count, float* dst) {
    switch (dtype) {
        case DType::F32: std::memcpy(dst, src, size_t(count) * 4); return;
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
                dst[i] = dtype == DType::BF16 ? bfloat16BitsToFloat(h) : halfBitsToFloat(h);
            }
            return;
    }
}

void fillPoison(std::byte* dst, int64_t bytes) {
    if (bytes > 0) std::memset(dst, 0xFF, size_t(bytes));
}

}  // namespace hsdp
