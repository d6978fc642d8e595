// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/detail/unique_key_json.h"

#include <unordered_set>
#include <vector>

#include "scenario/json_fields.h"
#include "scenario/json_text.h"

namespace hsdp {

namespace {

std::string libraryReason(const std::string& what) {
    const auto colon = what.find(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

nlohmann::json parseUniqueKeyJson(std::string_view text) {
    if (const size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos)
        throw UniqueKeyJsonError{"", "invalid UTF-8 at byte " + std::to_string(bad)};
    if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
        throw UniqueKeyJsonError{"", "a NUL byte at byte " + std::to_string(nul)};
    // The keys seen in each open object, and each open object's pointer
    // (objects inside arrays do not occur in the files read here).
    std::vector<std::unordered_set<std::string>> keys;
    std::vector<std::string> paths;
    std::string lastKey;
    auto callback = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& value) {
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start) {
            paths.push_back(paths.empty() ? "" : childPath(paths.back(), lastKey));
            keys.emplace_back();
        } else if (event == Event::object_end) {
            keys.pop_back();
            paths.pop_back();
        } else if (event == Event::key) {
            lastKey = value.get<std::string>();
            if (!keys.back().insert(lastKey).second)
                throw UniqueKeyJsonError{childPath(paths.back(), lastKey),
                                         "the key \"" + lastKey + "\" is given twice"};
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, callback);
    } catch (const nlohmann::json::exception& error) {
        throw UniqueKeyJsonError{"", "not valid JSON: " + libraryReason(error.what())};
    }
}

}  // namespace hsdp
