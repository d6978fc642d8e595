// SPDX-License-Identifier: Apache-2.0
#include "job_record/detail/rank_list.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

constexpr int64_t kMaxRank = int64_t(1) << 24;
constexpr const char* kExpected = "a list of ranks: \"[0, 1, 2]\" or [0, 1, 2]";

std::vector<int64_t> parseRankText(const std::string& text, const std::string& path) {
    std::vector<int64_t> ranks;
    size_t pos = 0;
    const auto skipSpace = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    };
    const auto next = [&](char wanted) {
        skipSpace();
        if (pos >= text.size() || text[pos] != wanted) return false;
        ++pos;
        return true;
    };
    const auto fail = [&] { failExpected(path, kExpected, Json(text)); };
    if (!next('[')) fail();
    if (!next(']')) {
        do {
            skipSpace();
            int64_t rank = -1;
            const char* first = text.data() + pos;
            const auto [end, error] = std::from_chars(first, text.data() + text.size(), rank);
            if (error != std::errc() || rank < 0 || rank > kMaxRank) fail();
            pos += static_cast<size_t>(end - first);
            ranks.push_back(rank);
        } while (next(','));
        if (!next(']')) fail();
    }
    skipSpace();
    if (pos != text.size()) fail();
    return ranks;
}

}  // namespace

std::vector<int64_t> readRankList(const Json& value, const std::string& path) {
    std::vector<int64_t> ranks;
    if (value.is_string()) {
        ranks = parseRankText(value.get<std::string>(), path);
    } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i)
            ranks.push_back(readInt(value[i], childPath(path, i), 0, kMaxRank));
    } else {
        failExpected(path, kExpected, value);
    }
    std::set<int64_t> seen;
    for (int64_t rank : ranks)
        if (!seen.insert(rank).second)
            throw ScenarioError(path, "rank " + std::to_string(rank) + " is listed twice");
    return ranks;
}

}  // namespace hsdp
