// SPDX-License-Identifier: Apache-2.0
#include "runtime/file_limits.h"

#include <sys/resource.h>

#include <fstream>

namespace hsdp {

namespace {

long asLong(rlim_t value) {
    return value == RLIM_INFINITY ? -1 : static_cast<long>(value);
}

// Linux's per-process ceiling on open files; elsewhere unknown.
long nrOpen() {
    long value = -1;
    std::ifstream("/proc/sys/fs/nr_open") >> value;
    return value > 0 ? value : -1;
}

}  // namespace

FileLimits openFileLimits() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
    return {asLong(limit.rlim_cur), asLong(limit.rlim_max), nrOpen()};
}

}  // namespace hsdp
