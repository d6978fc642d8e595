// SPDX-License-Identifier: Apache-2.0
#include "output_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli_args.h"

namespace hsdp::cli {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& option, const std::string& path,
                         const std::string& reason) {
    throw UsageError(option + " '" + path + "': " + reason);
}

// "out/" names the folder "out": drop trailing slashes before taking the parent.
fs::path parentOf(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

// The folder that will receive a new entry must exist and be writable.
void checkParentFolder(const std::string& option, const std::string& path) {
    const fs::path parent = parentOf(path);
    std::error_code ec;
    if (!fs::exists(parent, ec))
        refuse(option, path, "folder '" + parent.string() + "' does not exist");
    if (!fs::is_directory(parent, ec))
        refuse(option, path, "'" + parent.string() + "' is not a folder");
    if (access(parent.c_str(), W_OK | X_OK) != 0)
        refuse(option, path,
               "cannot write in folder '" + parent.string() + "': " + std::strerror(errno));
}

}  // namespace

void checkOutputFile(const std::string& option, const std::string& path) {
    if (path.empty()) refuse(option, path, "empty path");
    std::error_code ec;
    if (fs::is_directory(path, ec)) refuse(option, path, "is a folder, expected a file");
    checkParentFolder(option, path);
}

void checkDumpFolder(const std::string& option, const std::string& path) {
    if (path.empty()) refuse(option, path, "empty path");
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (fs::exists(status)) {
        if (!fs::is_directory(status)) refuse(option, path, "exists and is not a folder");
        if (!fs::is_empty(path, ec))
            refuse(option, path, "folder is not empty (give a new or an empty folder)");
        if (access(path.c_str(), W_OK | X_OK) != 0)
            refuse(option, path, std::string("cannot write in it: ") + std::strerror(errno));
        return;
    }
    checkParentFolder(option, path);
}

void createDumpFolder(const std::string& option, const std::string& path) {
    // mkdir, not create_directories: a mistyped parent must not grow a tree from "/".
    if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
        refuse(option, path, std::string("cannot create the folder: ") + std::strerror(errno));
}

std::string writeFileAtomically(const std::string& path, const std::string& content) {
    std::string temp = (parentOf(path) / ("." + fs::path(path).filename().string() + ".XXXXXX"));
    const int fd = mkstemp(temp.data());
    if (fd < 0) return std::strerror(errno);
    size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        written += size_t(n);
    }
    std::string error = written == content.size() ? "" : std::strerror(errno);
    // mkstemp makes the file 0600; an output file gets the usual umask-derived mode.
    const mode_t mask = umask(0);
    umask(mask);
    if (error.empty() && fchmod(fd, 0666 & ~mask) != 0) error = std::strerror(errno);
    if (close(fd) != 0 && error.empty()) error = std::strerror(errno);
    if (error.empty() && std::rename(temp.c_str(), path.c_str()) != 0) error = std::strerror(errno);
    if (!error.empty()) std::remove(temp.c_str());
    return error;
}

int writeClusterFile(const std::string& content, const std::optional<std::string>& output) {
    if (!output) {
        std::cout << content;
        return 0;
    }
    if (auto error = writeFileAtomically(*output, content); !error.empty()) {
        std::cerr << "hsdp-inspect: cannot write '" << *output << "': " << error << "\n";
        return 2;
    }
    std::cerr << "calibrate: wrote " << *output << "\n";
    return 0;
}

}  // namespace hsdp::cli
