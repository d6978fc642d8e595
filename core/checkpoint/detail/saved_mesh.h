// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hf_config/parallel_layout.h"

namespace hsdp {

// The layouts a job of `writers` ranks may have run with, in the order the
// saved mesh is inferred: fewest dims first (dp_shard=W alone, then two
// dims, then three), dp_replicate x dp_shard before dp_shard x tp, larger
// dp_shard first. Every product is `writers`; ep stays 1.
std::vector<ParallelLayout> savedLayoutCandidates(int64_t writers);

// How many dims above degree 1 a layout has besides dp_shard's.
int layoutDims(const ParallelLayout& layout);

// "dp_replicate=2,dp_shard=4" (degrees of 1 left out, but dp_shard).
std::string layoutText(const ParallelLayout& layout);

}  // namespace hsdp
