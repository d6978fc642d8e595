// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checkpoint/safetensors_dtype.h"

namespace hsdp {

// The largest JSON header read: the safetensors library's own limit is 100 MB.
inline constexpr uint64_t kMaxSafetensorsHeaderBytes = uint64_t(100) << 20;

// One tensor of a safetensors file, as its header describes it.
struct SafetensorsTensor {
    std::string name;
    const SafetensorsDType* dtype = nullptr;
    std::vector<int64_t> shape;
    uint64_t dataBegin = 0;  // byte range in the data section (after the header)
    uint64_t dataEnd = 0;
    int64_t numel() const;
};

// A safetensors file's header: `u64 N` (little-endian), N bytes of JSON
// mapping each tensor's name to its dtype, shape and data_offsets, plus an
// optional `__metadata__` object of strings; the data section follows.
struct SafetensorsHeader {
    uint64_t jsonBytes = 0;                  // N
    uint64_t dataBytes = 0;                  // the data section: file size - 8 - N
    std::vector<SafetensorsTensor> tensors;  // header order
    bool hasMetadata = false;
    std::vector<std::pair<std::string, std::string>> metadata;  // header order

    const std::string* metadataValue(std::string_view key) const;  // nullptr: absent
};

// N from the file's first 8 bytes, checked before anything more is read: at
// most kMaxSafetensorsHeaderBytes and 8 + N within `fileSize`. Throws
// CheckpointError naming `fileName`.
uint64_t safetensorsHeaderLength(std::string_view first8, const std::string& fileName,
                                 uint64_t fileSize);

// Reads and validates a header from `bytes`, the first bytes of a file of
// `fileSize` bytes (at least 8 + N of them; more are ignored). A pure
// function of its arguments, for tests and fuzzing. Throws CheckpointError
// naming the file and, where one is to blame, the tensor: a length past the
// cap or the file's end, JSON that is not valid UTF-8 or not an object, a
// duplicate name, an unknown dtype, data_offsets that are not [begin, end]
// with end - begin = elements x dtype size, outside the data section,
// overlapping another tensor or leaving bytes no tensor holds (the format
// allows no holes), `__metadata__` that is not an object of strings.
SafetensorsHeader readSafetensorsHeader(std::string_view bytes, const std::string& fileName,
                                        uint64_t fileSize);

}  // namespace hsdp
