// SPDX-License-Identifier: Apache-2.0
#include "types/float16.h"

#include <bit>
#include <cmath>

namespace hsdp {

float bf16ToFloat(uint16_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBf16(float value) {
    uint32_t bits = std::bit_cast<uint32_t>(value);
    if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x0040u);  // stay quiet NaN
    const uint32_t lsb = (bits >> 16) & 1u;
    bits += 0x7FFFu + lsb;  // round to nearest, ties to even
    return static_cast<uint16_t>(bits >> 16);
}

float f16ToFloat(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F)  // inf / NaN
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in fp32
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t floatToF16(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const uint32_t absBits = bits & 0x7FFFFFFFu;
    if (absBits >= 0x7F800000u)  // inf / NaN
        return sign | 0x7C00u | (absBits > 0x7F800000u ? 0x0200u : 0u);
    if (absBits >= 0x477FF000u) return sign | 0x7C00u;  // rounds to >= 65520: overflow to inf
    if (absBits < 0x38800000u) {
        // Below the smallest normal half (2^-14): a subnormal in units of 2^-24.
        // rint uses the default rounding mode, round to nearest even.
        const float units = std::rint(std::bit_cast<float>(absBits) * 16777216.0f);
        return sign | static_cast<uint16_t>(units);
    }
    // Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits.
    uint32_t half = absBits - (112u << 23);
    const uint32_t lsb = (half >> 13) & 1u;
    half += 0x0FFFu + lsb;
    return sign | static_cast<uint16_t>(half >> 13);
}

}  // namespace hsdp
