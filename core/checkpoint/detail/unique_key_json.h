// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hsdp {

// Why unique-key JSON could not be parsed: `path` is a JSON pointer ("" for
// the document, "/weight_map/lm_head.weight" for a duplicate key).
struct UniqueKeyJsonError {
    std::string path;
    std::string problem;
};

// Parses `text` into nlohmann::json (sorted objects: lookups stay
// logarithmic in an index of 100,000 tensors), refusing what JSON parsers
// let pass: a key given twice in one object (the later would silently win),
// invalid UTF-8 and NUL bytes. Throws UniqueKeyJsonError.
nlohmann::json parseUniqueKeyJson(std::string_view text);

}  // namespace hsdp
