// SPDX-License-Identifier: Apache-2.0
#pragma once

// Compares an expected JSON excerpt against a real document: the golden
// examples and the docs' plan excerpts pin only the fields they name.

#include <string>

#include <nlohmann/json.hpp>

namespace hsdp::testing {

// Every key of `expected` must be in `actual` with an agreeing value (objects:
// key order irrelevant, extra keys allowed; arrays: same length, element-wise).
// Returns the JSON path of the first disagreement, or "" when they agree.
inline std::string firstMismatch(const nlohmann::json& expected, const nlohmann::json& actual,
                                 const std::string& path) {
    if (expected.is_object()) {
        if (!actual.is_object()) return path + " (expected an object)";
        for (const auto& [key, value] : expected.items()) {
            if (!actual.contains(key)) return path + "/" + key + " (missing)";
            auto m = firstMismatch(value, actual.at(key), path + "/" + key);
            if (!m.empty()) return m;
        }
        return "";
    }
    if (expected.is_array()) {
        if (!actual.is_array() || actual.size() != expected.size())
            return path + " (expected " + expected.dump() + ", got " + actual.dump() + ")";
        for (size_t i = 0; i < expected.size(); ++i) {
            auto m = firstMismatch(expected[i], actual[i], path + "/" + std::to_string(i));
            if (!m.empty()) return m;
        }
        return "";
    }
    return expected == actual
               ? ""
               : path + " (expected " + expected.dump() + ", got " + actual.dump() + ")";
}

}  // namespace hsdp::testing
