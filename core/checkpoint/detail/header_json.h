// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hsdp {

// One entry of a safetensors header as written, before its values are checked.
struct RawHeaderEntry {
    std::string name;
    std::optional<std::string> dtype;
    std::optional<std::vector<uint64_t>> shape;
    std::optional<std::vector<uint64_t>> dataOffsets;
};

// A header's JSON split into tensor entries and `__metadata__` (both in file
// order), with the types the format requires: every entry an object, dtype
// a string, shape and data_offsets arrays of integers >= 0, `__metadata__` an
// object of strings; other keys of an entry are ignored, as the safetensors
// library ignores them.
struct RawHeader {
    std::vector<RawHeaderEntry> tensors;
    bool hasMetadata = false;
    std::vector<std::pair<std::string, std::string>> metadata;
};

// Where a JSON problem is: the tensor whose entry holds it, or the one before it.
struct HeaderJsonProblem {
    std::string tensor;  // "" when the problem is not inside a tensor's entry
    std::string problem;
};

// Parses `json` (the header's text). Never builds a DOM: a 100 MiB header
// costs its tensors, and no nesting reaches the stack. Throws
// HeaderJsonProblem for invalid JSON, invalid UTF-8, a NUL byte, a
// duplicate name or key, or a value of the wrong type.
RawHeader parseHeaderJson(std::string_view json);

}  // namespace hsdp
