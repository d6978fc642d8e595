// SPDX-License-Identifier: Apache-2.0
#include "runtime/detail/keyed_store.h"

#include <gloo/common/error.h>

namespace hsdp {

KeyedStore::Entry& KeyedStore::entry(const std::string& key) {
    auto& slot = entries_[key];
    if (!slot) slot = std::make_unique<Entry>();
    return *slot;
}

void KeyedStore::set(const std::string& key, const std::vector<char>& data) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(key);
    e.data = data;
    e.set = true;
    e.changed.notify_all();
}

std::vector<char> KeyedStore::get(const std::string& key) {
    wait({key});
    std::lock_guard lock(mutex_);
    return entry(key).data;
}

void KeyedStore::wait(const std::vector<std::string>& keys) {
    wait(keys, kDefaultTimeout);
}

void KeyedStore::wait(const std::vector<std::string>& keys,
                      const std::chrono::milliseconds& timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(mutex_);
    for (const auto& key : keys) {
        Entry& e = entry(key);
        if (!e.changed.wait_until(lock, deadline, [&] { return e.set; }))
            throw gloo::IoException("rendezvous: timed out after " +
                                    std::to_string(timeout.count()) + " ms waiting for key " + key);
    }
}

}  // namespace hsdp
