// SPDX-License-Identifier: Apache-2.0
#include "collectives/detail/gather_buffer_pool.h"

#include <algorithm>

namespace hsdp {

namespace {

std::shared_ptr<float> allocateFloats(size_t floats) {
    // new float[n] default-initialises: no zero fill of bytes Gloo overwrites.
    return std::shared_ptr<float>(new float[std::max<size_t>(floats, 1)],
                                  std::default_delete<float[]>());
}

}  // namespace

std::shared_ptr<float> GatherBufferPool::acquire(size_t floats) {
    auto isFree = [](const Entry& e) { return e.data.use_count() == 1; };
    for (auto& e : entries_)
        if (isFree(e) && e.floats >= floats) return e.data;
    for (auto& e : entries_)
        if (isFree(e)) {
            e.data.reset();  // give the old block back before taking the bigger one
            e = {allocateFloats(floats), floats};
            return e.data;
        }
    // Every pooled buffer is held by views: forget the oldest (its views keep
    // it alive and free it) when the pool is full, and add a new one.
    if (entries_.size() >= kMaxPooled) entries_.erase(entries_.begin());
    entries_.push_back({allocateFloats(floats), floats});
    return entries_.back().data;
}

GatherBufferPool& GatherBufferPool::forThisThread() {
    thread_local GatherBufferPool pool;
    return pool;
}

}  // namespace hsdp
