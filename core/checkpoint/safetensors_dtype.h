// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "types/dtype.h"

namespace hsdp {

// One element type of the safetensors format, as its header spells it.
struct SafetensorsDType {
    std::string_view name;          // "BF16", "F8_E4M3", "F4", ...
    int bits = 0;                   // per element: 4 and 6 for the packed sub-byte floats
    std::optional<DType> scenario;  // the scenario's dtype, nullopt: none (integers, fp8, ...)
};

// The entry of a dtype the format defines (BOOL, U8, I8, F8_E5M2, F8_E4M3,
// F8_E8M0, F4, F6_E2M3, F6_E3M2, I16, U16, F16, BF16, I32, U32, F32, F64, I64,
// U64, C64); nullptr for any other name.
const SafetensorsDType* findSafetensorsDType(std::string_view name);

// "BOOL, U8, ..., C64": every name, for messages.
std::string safetensorsDTypeNames();

}  // namespace hsdp
