// SPDX-License-Identifier: Apache-2.0
#include "distributed/detail/locked_file_store.h"

#include <stdexcept>
#include <thread>

namespace hsdp {

void LockedFileStore::set(const std::string& key, const std::vector<char>& data) {
    std::lock_guard lock(setMutex_);
    FileStore::set(key, data);
}

void LockedFileStore::wait(const std::vector<std::string>& keys) {
    wait(keys, timeout_);  // FileStore::get() comes here, with no timeout of its own
}

void LockedFileStore::wait(const std::vector<std::string>& keys,
                           const std::chrono::milliseconds& timeout) {
    const auto deadline = std::chrono::steady_clock::now() + std::max(timeout, timeout_);
    auto pause = std::chrono::milliseconds(1);
    while (!check(keys)) {
        if (std::chrono::steady_clock::now() > deadline) {
            std::string names;
            for (const auto& k : keys) names += (names.empty() ? "" : ", ") + k;
            throw std::runtime_error("timed out after " +
                                     std::to_string(std::max(timeout, timeout_).count()) +
                                     " ms waiting for the store key(s) " + names);
        }
        if (giveUp_)
            if (const std::string reason = giveUp_(); !reason.empty())
                throw std::runtime_error(reason);
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(50));
    }
}

}  // namespace hsdp
