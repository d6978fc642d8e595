// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace hsdp {

// Why a file of outside input cannot be read, in one wording for every
// reader (scenario, model config, saved run, trace): "it is a directory",
// "No such file or directory", "Permission denied", "it is empty", "it is
// larger than …". Each reader puts its own noun in front ("cannot read the
// model config: it is a directory") and names the file.
class InputFileError : public std::runtime_error {
public:
    explicit InputFileError(const std::string& reason);
    std::string reason;
};

// The whole file at `path`, at most `maxBytes` long; throws InputFileError.
std::string readInputFile(const std::string& path, size_t maxBytes);

// "PATH: cannot read the WHAT: REASON", the line every reader prints.
std::string inputFileMessage(const std::string& path, const std::string& what,
                             const InputFileError& error);

}  // namespace hsdp
