// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/safetensors_dtype.h"

#include <array>

namespace hsdp {

namespace {

// The format's dtypes in its own order (increasing alignment). Only the four
// floating-point types a scenario computes with have a counterpart.
constexpr std::array<SafetensorsDType, 20> kDTypes = {{
    {"BOOL", 8, std::nullopt},    {"U8", 8, std::nullopt},      {"I8", 8, std::nullopt},
    {"F8_E5M2", 8, std::nullopt}, {"F8_E4M3", 8, std::nullopt}, {"F8_E8M0", 8, std::nullopt},
    {"F4", 4, std::nullopt},      {"F6_E2M3", 6, std::nullopt}, {"F6_E3M2", 6, std::nullopt},
    {"I16", 16, std::nullopt},    {"U16", 16, std::nullopt},    {"F16", 16, DType::F16},
    {"BF16", 16, DType::BF16},    {"I32", 32, std::nullopt},    {"U32", 32, std::nullopt},
    {"F32", 32, DType::F32},      {"F64", 64, DType::F64},      {"I64", 64, std::nullopt},
    {"U64", 64, std::nullopt},    {"C64", 64, std::nullopt},
}};

}  // namespace

const SafetensorsDType* findSafetensorsDType(std::string_view name) {
    for (const SafetensorsDType& dtype : kDTypes)
        if (dtype.name == name) return &dtype;
    return nullptr;
}

std::string safetensorsDTypeNames() {
    std::string names;
    for (const SafetensorsDType& dtype : kDTypes) {
        if (!names.empty()) names += ", ";
        names += dtype.name;
    }
    return names;
}

}  // namespace hsdp
