// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace hsdp::bench {

// Temporary directory for the scenario and plan files, removed on destruction
// unless the user asked to keep them.
class WorkDir {
public:
    explicit WorkDir(const std::string& keep, const std::string& prefix = "hsdp-bench-plan")
        : keep_(!keep.empty()) {
        if (keep_) {
            path_ = keep;
            std::filesystem::create_directories(path_);
            return;
        }
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create " + pattern);
        path_ = pattern;
    }
    ~WorkDir() {
        std::error_code ignored;
        if (!keep_) std::filesystem::remove_all(path_, ignored);
    }
    const std::string& path() const { return path_; }

private:
    bool keep_;
    std::string path_;
};

}  // namespace hsdp::bench
