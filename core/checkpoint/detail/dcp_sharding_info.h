// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/safetensors_header.h"

namespace hsdp {

// What PyTorch's Hugging Face storage writer (torch.distributed.checkpoint,
// torch >= 2.9) records in each file's `__metadata__`: under
// "DCP_SHARDING_INFO", a JSON text {"<tensor>": {"saved_offsets": [o0, o1,
// ...]}, ...} giving where each tensor of the file starts in the full tensor
// (the file holds the piece a rank saved; its shape is the piece's).
// nullopt when the file carries none. Throws CheckpointError naming the file
// and tensor: not JSON, an entry without saved_offsets of one integer >= 0
// per dim, a tensor of the file without an entry, an entry for a tensor the
// file does not hold.
std::optional<std::map<std::string, std::vector<int64_t>>> readDcpShardingInfo(
    const SafetensorsHeader& header, const std::string& fileName);

// The rank that wrote a file named as the writer names per-rank files,
// shard-<rank + 1, 5 digits>-model-<i>-of-<n>.safetensors; -1 for any other name.
int64_t rankOfShardFile(const std::string& fileName);

}  // namespace hsdp
