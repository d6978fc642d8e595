// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hsdp {

// `model.safetensors.index.json`: which shard file holds each tensor, and
// the size the writer recorded ({"metadata": {"total_size": N}, "weight_map":
// {"<tensor>": "<file>", ...}}).
struct ShardIndex {
    std::optional<uint64_t> totalSize;             // metadata.total_size, bytes
    std::map<std::string, std::string> weightMap;  // tensor -> file, relative to the index
    std::vector<std::string> files;                // the distinct files, natural order
};

// Throws CheckpointError naming the index and the key: not JSON, not an
// object, no weight_map, a file that is not a relative path inside the
// index's folder, a total_size that is not an integer >= 0.
ShardIndex readShardIndex(const std::string& path);

}  // namespace hsdp
