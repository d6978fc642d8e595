// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <gloo/rendezvous/file_store.h>

namespace hsdp {

// Gloo's FileStore, fit for the hundreds of rank threads of one process:
// - set() appends to an unguarded list of the paths it wrote, so concurrent
//   sets corrupted the heap (aborts in a worker whose ranks connect at
//   once): sets are serialized here;
// - get() waits with FileStore's fixed 30 s, whatever the context's timeout,
//   and a group of a 1,024-rank run meets later than that: every wait here
//   takes `timeout`;
// - wait() polls every key file every 10 ms, from every waiting rank thread
//   (1,000 threads: 100,000 opens a second): here the pause grows to 50 ms;
// - a wait gives up as soon as `giveUp` names a reason (another process of
//   the run failed), instead of at the timeout.
class LockedFileStore final : public gloo::rendezvous::FileStore {
public:
    LockedFileStore(const std::string& path, std::chrono::milliseconds timeout,
                    std::function<std::string()> giveUp = {})
        : FileStore(path), timeout_(timeout), giveUp_(std::move(giveUp)) {}

    void set(const std::string& key, const std::vector<char>& data) override;
    void wait(const std::vector<std::string>& keys) override;
    void wait(const std::vector<std::string>& keys,
              const std::chrono::milliseconds& timeout) override;

private:
    std::mutex setMutex_;
    const std::chrono::milliseconds timeout_;
    const std::function<std::string()> giveUp_;
};

}  // namespace hsdp
