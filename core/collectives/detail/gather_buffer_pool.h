// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace hsdp {

// The gathered buffers of one rank thread, reused across calls as the reference's
// buffer_cache reuses its output: a fresh buffer per call costs a page fault
// per 4 KiB page as Gloo writes into it, on loopback about as much as the
// transfer. Unlike the reference's cache, the fused gather hands out views of the
// buffer (GatheredTensor), so a buffer is reused only once no view holds it;
// a caller keeping its views alive gets a new buffer next time. Storage is
// never zero-filled: every byte read was written by the all-gather.
class GatherBufferPool {
public:
    // A buffer of at least `floats` floats that nothing else references.
    std::shared_ptr<float> acquire(size_t floats);
    size_t pooled() const { return entries_.size(); }

    static GatherBufferPool& forThisThread();

private:
    struct Entry {
        std::shared_ptr<float> data;
        size_t floats = 0;
    };
    static constexpr size_t kMaxPooled = 4;  // a gather uses one per mesh dim
    std::vector<Entry> entries_;
};

}  // namespace hsdp
