// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "types/dtype.h"

namespace hsdp {

// Values are computed on in fp32 and travel on the wire in the parameter's real
// width. Both directions round to nearest, ties to even (torch's CPU casts).

// fp32 <-> wire bytes (little endian), `count` elements.
void encodeValues(DType dtype, const float* src, int64_t count, std::byte* dst);
void decodeValues(DType dtype, const std::byte* src, int64_t count, float* dst);

// `value` rounded to the nearest value representable in `dtype`, back in fp32.
float roundTo(DType dtype, float value);

// The byte every padding byte is filled with: 0xFF decodes as NaN in every
// dtype at any element-aligned offset, so reading padding shows up in the data.
inline constexpr std::byte kPoisonByte{0xFF};
void fillPoison(std::byte* dst, int64_t bytes);

}  // namespace hsdp
