// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace hsdp::cli {

// Output paths are checked before a run starts, so a typo costs no run time
// and never discards a verdict: each check throws UsageError (exit 2) naming
// the option, the path and the reason.

// FILE may be written: its folder exists and is writable, and FILE is not a folder.
void checkOutputFile(const std::string& option, const std::string& path);

// DIR is missing (its parent exists and is writable: only DIR itself will be
// created) or an empty folder; a file or a non-empty folder is refused.
void checkDumpFolder(const std::string& option, const std::string& path);
// Creates DIR (the last component only) once the run is about to start.
void createDumpFolder(const std::string& option, const std::string& path);

// Writes `content` to a temporary file next to `path` and renames it over
// `path`: readers never see a half-written file. Returns "" or the reason.
std::string writeFileAtomically(const std::string& path, const std::string& content);

// `content` to FILE (atomically, then "calibrate: wrote FILE" on stderr) or,
// without one, to standard output: the calibrate commands' cluster file.
// Exit status 0, or 2 with the reason on stderr when FILE cannot be written.
int writeClusterFile(const std::string& content, const std::optional<std::string>& output);

}  // namespace hsdp::cli
