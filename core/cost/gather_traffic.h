// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cost/step_schedule.h"
#include "plan/plan.h"
#include "types/gather_strategy.h"
#include "types/scenario.h"

namespace hsdp {

// What each rank sends and receives to get every sharded matrix to the rank
// that runs its Newton–Schulz and the update back, under the two ways of
// doing it (docs/cost-model.md, "Gather traffic"):
//
//   all-gather  the reference design, what the runner does: per shard mesh
//               dim a fused all-gather of the batch to every member, then the
//               fp32 update broadcast from each param's computing rank;
//   all-to-all  each member sends only the computing rank of a param its
//               piece of it (padded to the alignment as the fused slots are),
//               and the computing rank sends each member back exactly its
//               fp32 slice of the update, over the shard group as one
//               (every shard mesh dim flattened).
//
// The replica broadcast and the TP transitions are the same under both and
// are left out. Bytes are those a rank puts on the wire and takes off it:
// the all-gather figures are the schedule's (the runner's trace bytes), the
// all-to-all figures the exchange's blocks (collectives/owner_exchange.h).

struct PhaseBytes {
    int64_t sent = 0;
    int64_t received = 0;
};

struct RankGatherTraffic {
    int rank = 0;
    PhaseBytes gather;        // the matrices to their computing rank
    PhaseBytes updateReturn;  // the update back to the shards

    int64_t received() const { return gather.received + updateReturn.received; }
    int64_t sent() const { return gather.sent + updateReturn.sent; }
};

struct StrategyTraffic {
    GatherStrategy strategy = GatherStrategy::AllGather;
    std::vector<RankGatherTraffic> ranks;  // every rank of the world

    // The most any rank receives, gather and return together.
    int64_t maxReceived() const;
    int64_t totalReceived() const;
};

struct GatherTraffic {
    StrategyTraffic allGather;  // every gathered group all-gathering
    StrategyTraffic allToAll;   // every gathered group exchanging
    // What the plan runs: each group under its own strategy (Group::gatherStrategy).
    StrategyTraffic chosen;
    std::string runs;  // "all-gather", "all-to-all", or "mixed" (per group)
};

// Both strategies for the plan at the data shapes given (real, or a shrunk
// run's); `schedule` is stepSchedule's at the same shapes (when a group runs
// all-to-all, the all-gather side is scheduled anew with every group
// all-gathering).
GatherTraffic gatherTraffic(const Scenario& scenario, const Plan& plan,
                            const StepSchedule& schedule,
                            const std::vector<std::vector<int64_t>>& paramShapes);
// At the scenario's real shapes.
GatherTraffic gatherTraffic(const Scenario& scenario, const Plan& plan);

}  // namespace hsdp
