#include "distributed/locked_file_store.h"

namespace hsdp {

void LockedFileStore::set(const std::string& key, const std::vector<char>& data) {
    std::lock_guard lock(setMutex_);
    store_.set(key, data);
}

std::vector<char> LockedFileStore::get(const std::string& key) {
    return store_.get(key);
}

void LockedFileStore::wait(const std::vector<std::string>& keys) {
    store_.wait(keys);
}

void LockedFileStore::wait(const std::vector<std::string>& keys,
                           const std::chrono::milliseconds& timeout) {
    store_.wait(keys, timeout);
}

}  // namespace hsdp
