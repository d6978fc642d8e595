// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <gloo/rendezvous/store.h>

namespace hsdp {

// The in-process rendezvous store of a run whose ranks all live here. Gloo's
// HashStore wakes every waiting thread on every set; with hundreds of rank
// threads connecting at once that is a storm of futex wake-ups growing with
// ranks squared (and kernel time that starves the listener thread, whose
// dropped connections then retry seconds later). Here a set wakes only the
// threads waiting for that key: wake-ups grow with the sockets connected.
class KeyedStore : public gloo::rendezvous::Store {
public:
    void set(const std::string& key, const std::vector<char>& data) override;
    std::vector<char> get(const std::string& key) override;
    void wait(const std::vector<std::string>& keys) override;
    void wait(const std::vector<std::string>& keys,
              const std::chrono::milliseconds& timeout) override;

private:
    struct Entry {
        bool set = false;
        std::vector<char> data;
        std::condition_variable changed;
    };
    Entry& entry(const std::string& key);  // with mutex_ held

    std::mutex mutex_;
    std::unordered_map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace hsdp
