// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace hsdp {

// RLIMIT_NOFILE as it stands; -1: unlimited (or unreadable). A process may
// raise its soft limit up to the hard one; only root may raise the hard one
// (on Linux up to fs.nr_open, usually 1,048,576).
struct FileLimits {
    long soft = -1;
    long hard = -1;
    long ceiling = -1;  // fs.nr_open: the most root may raise the hard limit to; -1: unknown
};
FileLimits openFileLimits();

// Whether a process needing `files` open files can get there by raising its
// own soft limit: under the hard limit, or no hard limit at all.
inline bool fitsHardLimit(long files, const FileLimits& limits) {
    return limits.hard < 0 || files <= limits.hard;
}

}  // namespace hsdp
