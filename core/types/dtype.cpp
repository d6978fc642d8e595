// SPDX-License-Identifier: Apache-2.0
#include "types/dtype.h"

namespace hsdp {

std::string_view dtypeName(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return "f32";
        case DType::BF16:
            return "bf16";
        case DType::F16:
            return "f16";
        case DType::F64:
            return "f64";
    }
    return "?";
}

int dtypeSize(DType dtype) {
    switch (dtype) {
        case DType::F32:
            return 4;
        case DType::BF16:
            return 2;
        case DType::F16:
            return 2;
        case DType::F64:
            return 8;
    }
    return 0;
}

std::optional<DType> parseDType(std::string_view text) {
    // PyTorch prints dtypes as torch.bfloat16; its aliases (float, half,
    // double) only with or without that prefix, the short names without it.
    constexpr std::string_view torchPrefix = "torch.";
    const bool torch = text.substr(0, torchPrefix.size()) == torchPrefix;
    if (torch) {
        text.remove_prefix(torchPrefix.size());
        if (text.size() <= 4 && text != "half") return std::nullopt;  // torch.f32 is no torch name
    }
    if (text == "f32" || text == "float32" || text == "float") return DType::F32;
    if (text == "bf16" || text == "bfloat16") return DType::BF16;
    if (text == "f16" || text == "float16" || text == "half") return DType::F16;
    if (text == "f64" || text == "float64" || text == "double") return DType::F64;
    return std::nullopt;
}

}  // namespace hsdp
