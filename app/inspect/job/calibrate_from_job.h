// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hsdp::cli {

// `calibrate --from-job`: fits `baseName`'s cluster to the job's timed
// collectives, prints the fit on stderr and writes the cluster to `output`
// (standard output without). Exit 0 written, 1 nothing timed to fit, 2 a
// file that cannot be read or written.
int calibrateFromJob(const std::vector<std::string>& dumps, const std::string& baseName,
                     const std::optional<std::string>& name,
                     const std::optional<std::string>& output);

}  // namespace hsdp::cli
