// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hsdp::bench {

// A file the benchmark cannot use; what() names the file and, where one is
// at fault, the line ("FILE:LINE: ...").
struct ShardSizesError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The largest per-rank payload a --shard-sizes file may ask for: every rank
// thread holds about 3 x ranks x payload at once (fused, unfused and raw
// outputs), all in this one process.
constexpr int64_t kMaxShardSizesPayload = int64_t(64) << 20;

// One per-rank f32 shard size in bytes per line: a positive whole number, a
// multiple of 4. Blank lines and lines starting with '#' are skipped; at
// least one size is required, at most kMaxShardSizesPayload bytes in all.
std::vector<int64_t> readShardSizes(const std::string& path);

}  // namespace hsdp::bench
