// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writes safetensors files and shard indexes in the documented format, for
// the checkpoint reader's tests: `u64 N` little-endian, N bytes of JSON
// (padded with spaces to a multiple of 8, as the safetensors library does),
// then the data. Small files get real data (a byte pattern); large ones are
// sparse (ftruncate): their data is never written, nor read.

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hsdp::testing {

struct TensorSpec {
    std::string name;
    std::string dtype;  // safetensors spelling: BF16, F32, ...
    std::vector<int64_t> shape;
    std::vector<int64_t> savedOffsets;  // DCP_SHARDING_INFO's saved_offsets; empty: none
};

inline uint64_t safetensorsBits(const std::string& dtype) {
    static const std::map<std::string, uint64_t> bits = {
        {"BOOL", 8}, {"U8", 8},   {"I8", 8},   {"F8_E4M3", 8}, {"F8_E5M2", 8},
        {"F4", 4},   {"I16", 16}, {"F16", 16}, {"BF16", 16},   {"I32", 32},
        {"F32", 32}, {"F64", 64}, {"I64", 64}, {"U64", 64}};
    return bits.at(dtype);
}

inline uint64_t tensorBytes(const TensorSpec& t) {
    uint64_t n = 1;
    for (int64_t d : t.shape) n *= uint64_t(d);
    return n * safetensorsBits(t.dtype) / 8;
}

// The header's JSON for `tensors` laid out one after another, plus
// __metadata__ (DCP_SHARDING_INFO from the specs' savedOffsets, when any).
inline std::string safetensorsHeaderJson(const std::vector<TensorSpec>& tensors,
                                         std::map<std::string, std::string> metadata = {}) {
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    nlohmann::ordered_json dcp = nlohmann::ordered_json::object();
    for (const TensorSpec& t : tensors)
        if (!t.savedOffsets.empty()) dcp[t.name] = {{"saved_offsets", t.savedOffsets}};
    if (!dcp.empty()) metadata["DCP_SHARDING_INFO"] = dcp.dump();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    uint64_t offset = 0;
    for (const TensorSpec& t : tensors) {
        const uint64_t end = offset + tensorBytes(t);
        header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, end}}};
        offset = end;
    }
    std::string json = header.dump();
    json.append((8 - json.size() % 8) % 8, ' ');
    return json;
}

// `u64 N` + `json`: a file's first bytes.
inline std::string safetensorsPrefix(const std::string& json, std::optional<uint64_t> n = {}) {
    std::string bytes(8, '\0');
    const uint64_t length = n.value_or(json.size());
    for (int i = 0; i < 8; ++i) bytes[size_t(i)] = char((length >> (8 * i)) & 0xff);
    return bytes + json;
}

// A whole small file in memory: prefix and a data section of `dataBytes`.
inline std::string safetensorsBytes(const std::string& json, uint64_t dataBytes) {
    std::string bytes = safetensorsPrefix(json);
    for (uint64_t i = 0; i < dataBytes; ++i) bytes += char(i * 37 + 11);
    return bytes;
}

inline uint64_t dataBytesOf(const std::vector<TensorSpec>& tensors) {
    uint64_t n = 0;
    for (const TensorSpec& t : tensors) n += tensorBytes(t);
    return n;
}

// Writes the file; `sparse`: the data section is a hole (ftruncate), else
// real bytes. Returns the file's size.
inline uint64_t writeSafetensors(const std::string& path, const std::vector<TensorSpec>& tensors,
                                 bool sparse, std::map<std::string, std::string> metadata = {}) {
    const std::string json = safetensorsHeaderJson(tensors, std::move(metadata));
    const uint64_t data = dataBytesOf(tensors);
    const uint64_t size = 8 + json.size() + data;
    if (!sparse) {
        std::ofstream(path, std::ios::binary) << safetensorsBytes(json, data);
        return size;
    }
    std::ofstream(path, std::ios::binary) << safetensorsPrefix(json);
    const int fd = ::open(path.c_str(), O_WRONLY);
    const bool ok = fd >= 0 && ::ftruncate(fd, off_t(size)) == 0;
    if (fd >= 0) ::close(fd);
    return ok ? size : 0;
}

// Writes raw bytes (a malformed file).
inline void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// model.safetensors.index.json: each tensor's file, and total_size.
inline void writeShardIndex(const std::string& path,
                            const std::vector<std::pair<std::string, std::string>>& weightMap,
                            std::optional<uint64_t> totalSize) {
    nlohmann::ordered_json index = nlohmann::ordered_json::object();
    if (totalSize) index["metadata"] = {{"total_size", *totalSize}};
    index["weight_map"] = nlohmann::ordered_json::object();
    for (const auto& [tensor, file] : weightMap) index["weight_map"][tensor] = file;
    std::ofstream(path) << index.dump(2);
}

}  // namespace hsdp::testing
