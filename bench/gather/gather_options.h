// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace hsdp::bench {

// A command line hsdp-bench gather cannot run; what() says why.
struct GatherUsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct GatherOptions {
    bool json = false;
    std::string shardSizesFile;  // empty: the built-in log-uniform workload
    int rounds = 0;              // 0: each measurement's default
    int ranks = 8;
    // "all-to-all": compare the two gather strategies instead (strategy_report.h).
    std::string strategy;
};

// --json, --shard-sizes FILE, --rounds N (1-1000), --ranks N (2-64),
// --strategy all-to-all.
GatherOptions parseGatherOptions(const std::vector<std::string>& args);

}  // namespace hsdp::bench
