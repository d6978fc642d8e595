// SPDX-License-Identifier: Apache-2.0
#include "runtime/allocator_policy.h"

#include <malloc.h>

namespace hsdp {

std::string useCachingAllocator() {
    const bool trim = mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
    const bool mmap = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
    if (!trim || !mmap) return "glibc defaults (mallopt refused the caching policy)";
    return "caching: glibc M_TRIM_THRESHOLD=1 GiB, M_MMAP_THRESHOLD=32 MiB";
}

void useTrimmingAllocator() {
    // glibc's defaults (DEFAULT_TRIM_THRESHOLD, DEFAULT_MMAP_THRESHOLD_MIN).
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

void returnFreedMemory() {
    malloc_trim(0);
}

}  // namespace hsdp
