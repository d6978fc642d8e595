// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace hsdp {

// Makes glibc keep freed memory mapped (no heap trimming, mmap only for
// blocks over 32 MiB) for the rest of the process, like the caching
// allocator torch runs the reference with. Without it every gathered tensor a rank
// frees goes back to the kernel and the next call page-faults it in again,
// one fault per 4 KiB. Rank threads of a run allocate and free whole
// gathered tensors per batch, so runs want it too. Returns a description of
// the policy for the report.
std::string useCachingAllocator();

}  // namespace hsdp
