// SPDX-License-Identifier: Apache-2.0
#include "gather_options.h"

#include <charconv>

namespace hsdp::bench {

namespace {

int parseCount(const std::string& option, const std::string& text, int lowest, int highest) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < lowest || value > highest)
        throw GatherUsageError(option + " wants a whole number from " + std::to_string(lowest) +
                               " to " + std::to_string(highest) + ", got '" + text + "'");
    return value;
}

}  // namespace

GatherOptions parseGatherOptions(const std::vector<std::string>& args) {
    GatherOptions o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--json") {
            o.json = true;
            continue;
        }
        if (arg != "--shard-sizes" && arg != "--rounds" && arg != "--ranks" && arg != "--strategy")
            throw GatherUsageError("unknown option '" + arg + "'");
        if (i + 1 == args.size()) throw GatherUsageError(arg + " needs a value");
        const std::string& value = args[++i];
        if (arg == "--shard-sizes")
            o.shardSizesFile = value;
        else if (arg == "--strategy") {
            if (value != "all-to-all")
                throw GatherUsageError(
                    "--strategy compares 'all-to-all' with the all-gather, got '" + value + "'");
            o.strategy = value;
        } else if (arg == "--rounds")
            o.rounds = parseCount(arg, value, 1, 1000);
        else
            o.ranks = parseCount(arg, value, 2, 64);
    }
    return o;
}

}  // namespace hsdp::bench
