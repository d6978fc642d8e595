// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace hsdp {

// 16-bit float conversions used by reductions on the wire format. Both
// directions round to nearest, ties to even, like torch's CPU casts, so a
// reduction over values exact in the 16-bit type gives bit-exact results.
float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);  // the upper 16 bits of the fp32 pattern, RNE
float f16ToFloat(uint16_t bits);    // IEEE 754 binary16, subnormals included
uint16_t floatToF16(float value);

}  // namespace hsdp
