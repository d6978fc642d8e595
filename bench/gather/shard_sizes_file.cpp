// SPDX-License-Identifier: Apache-2.0
#include "shard_sizes_file.h"

#include <charconv>
#include <fstream>

namespace hsdp::bench {

namespace {

std::string trimmed(const std::string& line) {
    const char* space = " \t\r\n";
    const auto first = line.find_first_not_of(space);
    if (first == std::string::npos) return {};
    return line.substr(first, line.find_last_not_of(space) - first + 1);
}

// The size on one line, or why it is not one.
int64_t parseSize(const std::string& text, const std::string& where) {
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range)
        throw ShardSizesError(where + "'" + text + "' is too large");
    if (ec != std::errc() || end != text.data() + text.size())
        throw ShardSizesError(where + "'" + text + "' is not a whole number of bytes");
    if (value <= 0) throw ShardSizesError(where + "shard size " + text + " must be positive");
    if (value % 4 != 0)
        throw ShardSizesError(where + "shard size " + text +
                              " is not a multiple of 4 (whole f32 elements)");
    return value;
}

}  // namespace

std::vector<int64_t> readShardSizes(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ShardSizesError(path + ": cannot open the shard sizes file");
    std::vector<int64_t> sizes;
    int64_t total = 0;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string text = trimmed(line);
        if (text.empty() || text[0] == '#') continue;
        const std::string where = path + ":" + std::to_string(number) + ": ";
        sizes.push_back(parseSize(text, where));
        total += sizes.back();
        if (total > kMaxShardSizesPayload)
            throw ShardSizesError(where + "the shards add up to more than " +
                                  std::to_string(kMaxShardSizesPayload >> 20) +
                                  " MiB per rank, more than this benchmark holds in memory");
    }
    if (in.bad()) throw ShardSizesError(path + ": read error");
    if (sizes.empty())
        throw ShardSizesError(path + ": no shard sizes (one per-rank size in bytes per line)");
    return sizes;
}

}  // namespace hsdp::bench
