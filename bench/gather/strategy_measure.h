// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gather_workload.h"

namespace hsdp::bench {

// The two gather strategies of the optimizer step (types/gather_strategy.h)
// on one workload, as the runner runs them on a shard group of w.ranks:
// each param is computed on one rank (greedy, largest first, onto the least
// loaded, as the planner's shard compute does), and "gather + update
// return" is everything the step does to get each full matrix to that rank
// and each rank its slice of the update, Newton–Schulz left out (the same
// under both: the update is the gathered matrix itself).
//   all-gather  fusedGatherCorrected, then the fp32 updates broadcast from
//               their computing ranks (hierarchicalBroadcast), then sliced;
//   all-to-all  gatherToComputers, then returnUpdateSlices.
struct StrategySide {
    std::vector<double> seconds;   // per round, the slowest rank's
    int64_t maxReceivedBytes = 0;  // per rank, the most any rank takes off the wire
    double meanReceivedBytes = 0;
    int64_t maxPeakBytes = 0;  // the highest per-rank high-water mark of the step's buffers
    bool verified = false;     // every rank's slice == its shard of the matrix, bit for bit
    std::string detail;        // why not
};

struct StrategySamples {
    StrategySide allGather;
    StrategySide allToAll;
};

// Both strategies in one world, interleaved round by round (each round
// starting with the other one), after an untimed warm-up that verifies.
StrategySamples measureStrategies(const GatherWorkload& w, int rounds);

}  // namespace hsdp::bench
