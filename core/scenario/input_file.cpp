// SPDX-License-Identifier: Apache-2.0
#include "scenario/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hsdp {

namespace {

std::string systemReason() {
    return errno ? std::strerror(errno) : "I/O error";
}

std::string tooLarge(size_t maxBytes) {
    return "it is larger than " + std::to_string(maxBytes >> 20) + " MiB (" +
           std::to_string(maxBytes) + " bytes), the most this reader accepts";
}

// read() rather than `out << in.rdbuf()`: the latter swallows a read error
// (it marks the output stream, not `in`), so an unreadable file looked empty.
std::string readOpened(std::istream& in, size_t maxBytes) {
    std::string text;
    char chunk[1 << 16];
    errno = 0;
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > maxBytes) throw InputFileError(tooLarge(maxBytes));
    }
    if (in.bad()) throw InputFileError(systemReason());
    return text;
}

}  // namespace

InputFileError::InputFileError(const std::string& reason)
    : std::runtime_error(reason), reason(reason) {}

std::string readInputFile(const std::string& path, size_t maxBytes) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputFileError("it is a directory");
    if (std::filesystem::is_regular_file(path, ec) &&
        std::filesystem::file_size(path, ec) > maxBytes && !ec)
        throw InputFileError(tooLarge(maxBytes));
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputFileError(systemReason());
    std::string text = readOpened(in, maxBytes);
    // Not a JSON error at line 1, column 1: nothing was written there.
    if (text.empty()) throw InputFileError("it is empty");
    return text;
}

std::string inputFileMessage(const std::string& path, const std::string& what,
                             const InputFileError& error) {
    return path + ": cannot read the " + what + ": " + error.reason;
}

}  // namespace hsdp
