// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_file_reader.h"
#include "checkpoint/safetensors_dtype.h"

namespace hsdp {

// What one file holds of a tensor: the whole tensor, or (DCP_SHARDING_INFO)
// the piece one rank saved.
struct TensorPiece {
    int file = 0;                  // index into Checkpoint::files
    int64_t rank = -1;             // the rank that wrote it, from the file's name; -1 unknown
    std::vector<int64_t> offsets;  // its first index in the full tensor, per dim
    std::vector<int64_t> sizes;    // its shape
    int64_t numel() const;
};

struct CheckpointTensor {
    std::string name;
    const SafetensorsDType* dtype = nullptr;
    std::vector<int64_t> shape;  // the full tensor's
    std::vector<TensorPiece> pieces;
    // Saved pieces that tile the tensor without forming a grid of
    // [begin, end) ranges per dim: no DTensor placement lays a tensor out so.
    bool irregularPieces = false;
    int64_t numel() const;
    uint64_t bytes() const;
};

struct CheckpointFile {
    std::string path;
    uint64_t size = 0;
    uint64_t headerBytes = 0;  // 8 + N: all that was read of it
    int64_t rank = -1;         // shard-<rank+1>-model-...: the rank that wrote it
    bool dcpShardingInfo = false;
    size_t tensors = 0;
};

// A checkpoint's tensors, read from the headers of its safetensors files
// (never their weights).
struct Checkpoint {
    std::string source;      // the path as given
    std::string indexPath;   // "" without a shard index
    std::string configPath;  // config.json beside the files, "" none
    std::optional<uint64_t> indexTotalSize;
    std::vector<CheckpointFile> files;
    std::vector<CheckpointTensor> tensors;  // natural name order
    // The files hold the pieces the ranks of a job saved (DCP_SHARDING_INFO,
    // more than one writer or a tensor in several pieces).
    bool savedSharding = false;
    int64_t writers = 0;             // ranks that wrote: the highest shard index (else the files)
    std::vector<std::string> notes;  // worth knowing, not errors

    int64_t numel() const;
    uint64_t tensorBytes() const;
    uint64_t headerBytes() const;  // read in all
};

// Reads the checkpoint at `path` (a .safetensors file, a shard index, or a
// folder holding either; see CheckpointLocation) through `reader`. Throws
// CheckpointError naming the file and tensor: any header the format
// refuses, a tensor in two files (without DCP_SHARDING_INFO), pieces of one
// tensor with different dtypes, pieces that overlap or leave part of the
// tensor uncovered, an index whose weight_map and files disagree.
Checkpoint readCheckpoint(const std::string& path, CheckpointFileReader& reader);
Checkpoint readCheckpoint(const std::string& path);  // from disk

}  // namespace hsdp
