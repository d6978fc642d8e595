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

// Back to glibc's own policy (freed memory trimmed, large blocks mmapped) once
// no run needs the cache: a studio that ran once would otherwise keep every
// worker thread's freed GiB mapped for good.
void useTrimmingAllocator();

// Hands the freed pages of every glibc arena back to the kernel (malloc_trim):
// a job that built and dropped a 131,072-rank schedule leaves hundreds of MiB
// free in its thread's arena, which no other thread's allocations reuse.
void returnFreedMemory();

}  // namespace hsdp
