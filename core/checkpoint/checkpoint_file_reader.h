// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

#include "checkpoint/safetensors_header.h"

namespace hsdp {

// How the checkpoint reader gets at files: a size and byte ranges, nothing
// else, so a test can count what is read (only headers, never weights).
class CheckpointFileReader {
public:
    virtual ~CheckpointFileReader() = default;
    // Throws CheckpointError naming the file (missing, a folder, unreadable).
    virtual uint64_t size(const std::string& path) = 0;
    virtual std::string read(const std::string& path, uint64_t offset, uint64_t length) = 0;
};

// Reads from disk and counts the bytes it returned.
class DiskFileReader : public CheckpointFileReader {
public:
    uint64_t size(const std::string& path) override;
    std::string read(const std::string& path, uint64_t offset, uint64_t length) override;
    uint64_t bytesRead() const { return bytesRead_; }

private:
    uint64_t bytesRead_ = 0;
};

// The header of the safetensors file at `path`: its first 8 bytes, the
// length checked against the cap and the file's size before anything is
// allocated, then the N bytes of JSON (readSafetensorsHeader). 8 + N bytes
// are read, never the data. `displayName` names the file in errors.
SafetensorsHeader readSafetensorsFile(const std::string& path, const std::string& displayName,
                                      CheckpointFileReader& reader);

}  // namespace hsdp
