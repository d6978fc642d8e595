// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp {

// What `--from-checkpoint PATH` reads, PATH resolved:
//   - a .json file: a shard index (model.safetensors.index.json) and the
//     files it names;
//   - any other file: one safetensors file;
//   - a folder: its model.safetensors.index.json (or its one
//     *.safetensors.index.json); without one, every *.safetensors file in it;
//     without any, those of its sharded/ folder (where PyTorch's storage
//     writer puts the per-rank files when it also consolidates).
// config.json is looked for beside the files (and, for sharded/, one up).
struct CheckpointLocation {
    std::string indexPath;           // "" without an index
    std::vector<std::string> files;  // paths, natural order
    std::string configPath;          // "" when there is none
    std::string shardedFolder;       // a sharded/ folder left unread, for a note ("" none)
};

// Throws CheckpointError naming PATH: missing, or a folder holding nothing
// to read.
CheckpointLocation locateCheckpoint(const std::string& path);

}  // namespace hsdp
