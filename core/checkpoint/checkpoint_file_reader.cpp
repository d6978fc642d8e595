// SPDX-License-Identifier: Apache-2.0
#include "checkpoint/checkpoint_file_reader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "checkpoint/checkpoint_error.h"

namespace hsdp {

uint64_t DiskFileReader::size(const std::string& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (error) throw CheckpointError(path, "", "cannot read it: " + error.message());
    if (std::filesystem::is_directory(status))
        throw CheckpointError(path, "", "cannot read it: it is a directory");
    const auto bytes = std::filesystem::file_size(path, error);
    if (error) throw CheckpointError(path, "", "cannot read it: " + error.message());
    return bytes;
}

std::string DiskFileReader::read(const std::string& path, uint64_t offset, uint64_t length) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw CheckpointError(path, "", std::string("cannot read it: ") + std::strerror(errno));
    std::string bytes(length, '\0');
    in.seekg(std::streamoff(offset));
    in.read(bytes.data(), std::streamsize(length));
    bytes.resize(size_t(in.gcount()));
    bytesRead_ += bytes.size();
    if (bytes.size() != length)
        throw CheckpointError(
            path, "",
            "cannot read it: it ended after " + std::to_string(offset + bytes.size()) + " bytes");
    return bytes;
}

SafetensorsHeader readSafetensorsFile(const std::string& path, const std::string& displayName,
                                      CheckpointFileReader& reader) {
    const uint64_t fileSize = reader.size(path);
    std::string bytes = reader.read(path, 0, std::min<uint64_t>(8, fileSize));
    const uint64_t jsonBytes = safetensorsHeaderLength(bytes, displayName, fileSize);
    bytes += reader.read(path, 8, jsonBytes);
    return readSafetensorsHeader(bytes, displayName, fileSize);
}

}  // namespace hsdp
