// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace hsdp::bench {

// Compares the plan `hsdp-inspect plan --json` wrote with the one the Python
// port of the seeds wrote, on the fields both produce alike (world size,
// replica count, no-comm and rejected params, groups with batches, owners,
// loads and shard-compute, schedule, per-rank ownership, TP transitions).
// "" when they agree, else what differs or could not be read.
std::string planDisagreement(const std::string& cppPlanPath, const std::string& portPlanPath);

}  // namespace hsdp::bench
