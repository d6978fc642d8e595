#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include <gloo/rendezvous/file_store.h>

namespace hsdp {

// Gloo's FileStore, safe for the many rank threads of one process: its set()
// appends to an unguarded list of the paths it wrote, so concurrent sets
// from several threads corrupt the heap (seen as aborts in a worker when its
// ranks connect at once). Sets are serialized here; get() and wait() only
// read files and poll, so they run unlocked and a rank waiting for a slow
// peer never blocks another's set.
class LockedFileStore final : public gloo::rendezvous::Store {
public:
    explicit LockedFileStore(const std::string& path) : store_(path) {}

    void set(const std::string& key, const std::vector<char>& data) override;
    std::vector<char> get(const std::string& key) override;
    void wait(const std::vector<std::string>& keys) override;
    void wait(const std::vector<std::string>& keys,
              const std::chrono::milliseconds& timeout) override;

private:
    std::mutex setMutex_;
    gloo::rendezvous::FileStore store_;
};

}  // namespace hsdp
