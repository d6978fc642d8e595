// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "collectives/fused_gather.h"
#include "gather_workload.h"

namespace hsdp::bench {

struct MeasureOptions {
    int rounds = 15;
    bool unfused = true;      // also time one all-gather per parameter
    bool raw = true;          // also time one raw all-gather of the packed bytes
    bool checkTruth = false;  // also compare every gathered tensor with the truth model
};

// Per round, the slowest rank's seconds from leaving a barrier to holding
// the result, for each variant; the variants take turns inside every round,
// each round starting with the next one.
struct GatherSamples {
    std::vector<double> fused;    // fusedGatherCorrected: pack, one all-gather, unpack
    std::vector<double> unfused;  // one all-gather per parameter, straight into its full tensor
    std::vector<double> raw;      // one all-gather of packedBytes(), preallocated, no (un)packing
    std::vector<GatherTimings> phases;  // per round, the split of the slowest fused rank
    int views = 0;  // fused tensors handed out as views of the gathered buffer (fewest of any rank)
    bool verified = false;  // fused == unfused (== truth when asked) on every rank, untimed
    std::string detail;     // why not verified
};

// One world of w.ranks rank threads (real Gloo over loopback TCP), created
// once; an untimed warm-up round checks the results, then `rounds` timed ones.
GatherSamples measureGather(const GatherWorkload& w, const MeasureOptions& options);

}  // namespace hsdp::bench
