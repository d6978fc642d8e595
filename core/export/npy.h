// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hsdp {

// NumPy .npy v1.0: little-endian float32 ('<f4'), C order. Creates missing
// parent directories. Throws std::runtime_error naming the file on failure.
void writeNpyFloat32(const std::string& path, const std::vector<int64_t>& shape, const float* data);

// The header dict of a float32 array, padded so the data starts at a multiple of 64.
std::string npyHeader(const std::vector<int64_t>& shape);

// Reads back what writeNpyFloat32 writes (used by tests and tools).
struct NpyArray {
    std::string descr;
    bool fortranOrder = false;
    std::vector<int64_t> shape;
    std::vector<float> data;
};
NpyArray readNpyFloat32(const std::string& path);

// A file name safe on every file system for a parameter name ("layers.0/w" -> "layers.0_w").
std::string npyFileName(const std::string& name);

}  // namespace hsdp
