// SPDX-License-Identifier: Apache-2.0
// `hsdp-inspect report` draws with Qt Widgets. It lives in a sibling program,
// hsdp-inspect-report, so hsdp-inspect itself links no Qt: it starts quickly,
// and the sanitizer builds of the engine's tests need no Qt side.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.h"

namespace hsdp::cli {

int reportCommand(const std::vector<std::string>& args) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::string writer = (self.parent_path() / "hsdp-inspect-report").string();
    std::vector<char*> argv = {const_cast<char*>(writer.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::cout.flush();
    execv(writer.c_str(), argv.data());
    std::cerr << "hsdp-inspect report: cannot start " << writer << ": " << std::strerror(errno)
              << "\n(it is built beside hsdp-inspect: cmake --build --preset default)\n";
    return 2;
}

}  // namespace hsdp::cli
