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
// Accepts short and long names ("bf16", "bfloat16", "float32", ...).
std::optional<DType> parseDType(std::string_view text);

}  // namespace hsdp
