// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hsdp {

// Object members keep file order, so meshes and error paths follow the file.
using Json = nlohmann::ordered_json;

// Deepest nesting of arrays/objects a scenario may use; keeps every walk of
// the document (ours and the library's) far from the stack limit.
inline constexpr int kMaxJsonDepth = 200;

// 1-based line and column (in characters) of byte `offset` of `text`.
struct TextPosition {
    size_t line = 1;
    size_t column = 1;
};
TextPosition textPositionOf(std::string_view text, size_t offset);

// Byte offset of the first byte that is not well-formed UTF-8 (overlong forms,
// surrogates and code points above U+10FFFF included); npos when all is valid.
size_t firstInvalidUtf8(std::string_view text);

// Parses `text` as one JSON document, stricter than nlohmann's defaults:
// invalid UTF-8, NUL bytes, duplicate object keys and nesting deeper than
// kMaxJsonDepth are errors. One leading UTF-8 byte order mark is skipped and
// not counted in positions. Throws ScenarioError: syntax and UTF-8 errors carry path "" and
// "line L, column C: ..." in the problem; a duplicate key carries its path.
Json parseStrictJson(std::string_view text);

}  // namespace hsdp
