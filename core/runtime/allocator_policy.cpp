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

}  // namespace hsdp
