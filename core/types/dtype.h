// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hsdp {

// Element types a parameter or transition may have. Values travel on the wire
// in their real width (2 bytes for bf16/f16), and are computed on in fp32.
enum class DType { F32, BF16, F16, F64 };

std::string_view dtypeName(DType dtype);  // canonical short name: "f32", "bf16", ...
int dtypeSize(DType dtype);               // bytes per element
// Accepts short names (f32 bf16 f16 f64), long ones (float32 bfloat16 float16
// float64), PyTorch's aliases (float half double) and PyTorch's printed forms
// (torch.float32 torch.bfloat16 torch.float16 torch.float64 torch.float
// torch.half torch.double).
std::optional<DType> parseDType(std::string_view text);

}  // namespace hsdp
