// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/gather_traffic.h"
#include "cost/memory_fit.h"
#include "cost/step_memory_model.h"
#include "cost/step_schedule.h"
#include "cost/step_simulation.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp {

// A plan's predicted optimizer step on a cluster (docs/cost-model.md): the
// schedule the runner follows, costed collective by collective and compute
// by compute, and the discrete-event pass over it.

// One phase summed over the step: each collective counted once (not per
// member), compute summed over the ranks that do it.
struct PhaseCost {
    StepPhase phase = StepPhase::Gather;
    int collectives = 0;
    double collectiveSeconds = 0;  // summed over the phase's collectives
    double computeSeconds = 0;     // summed over ranks
    double criticalSeconds = 0;    // the phase's share of the critical path
    // Of criticalSeconds, what compute took (a phase's Newton–Schulz, packing,
    // updates) and Newton–Schulz alone: "update-broadcast" on the path is
    // mostly the owners' Newton–Schulz, not the broadcast.
    double criticalComputeSeconds = 0;
    double criticalNewtonSchulzSeconds = 0;
};

// Consecutive critical-path items of one rank in one phase of one schedule
// entry (or TP transition), merged.
struct CriticalSegment {
    int rank = 0;
    StepPhase phase = StepPhase::Gather;
    int index = -1;  // schedule entry, or the TP transition for phase Tp; -1: local params
    double startSeconds = 0;
    double seconds = 0;
    int collectives = 0;           // how many of the merged items are collectives
    double collectiveSeconds = 0;  // their share of `seconds`; the rest is compute
};

// The groups along one mesh dim, and how many of them span nodes.
struct MeshDimLinks {
    std::string mesh;
    int dim = 0;
    std::string dimName;
    int groups = 0;
    int crossingNodes = 0;
};

struct RankCost {
    int rank = 0;
    double finishSeconds = 0;
    double busySeconds = 0;
    double waitingSeconds = 0;
    int64_t peakBytes = 0;      // the step's high-water mark (step_memory_model.h)
    int64_t residentBytes = 0;  // of which held all along: param, grad, momentum shards
};

struct PlanCost {
    Cluster cluster;  // as costed: enough nodes for the world
    double stepSeconds = 0;
    int lastRank = 0;
    std::vector<PhaseCost> phases;  // the phases the step has, in StepPhase order
    std::vector<CriticalSegment> criticalPath;
    std::vector<RankCost> ranks;
    std::vector<MeshDimLinks> meshDims;  // every mesh dim of size > 1
    int peakRank = 0;                    // the rank with the highest peak memory (the first)
    std::vector<StepMemory> memory;      // per rank
    // Whether every rank's peak fits the device; at real shapes also what
    // would make it fit (memoryFit), the out-of-memory diagnostic's figures.
    MemoryFit memoryFit;
    // Bytes to and from the Newton–Schulz ranks, as the runner moves them
    // (all-gather) and as all-to-all would (gather_traffic.h).
    GatherTraffic gatherTraffic;
    StepSchedule schedule;
    StepSimulation simulation;
};

// `cluster` with nodes enough for `worldSize` ranks: a preset describes one
// node and grows; a file with as many ranks or more is kept as it is.
Cluster clusterForWorld(const Cluster& cluster, int worldSize);

// The plan's corrected step on `cluster` (grown by clusterForWorld) with the
// data shapes given (real, or a shrunk run's).
PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                  const std::vector<std::vector<int64_t>>& paramShapes,
                  const std::vector<std::vector<int64_t>>& tpShapes);
// The same with the scenario's real shapes.
PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster);
// The same within `budget`: throws ScheduleTooLarge before the schedule outgrows
// it, Stopped (types/stopped.h) soon after its stop is requested.
PlanCost costPlan(const Scenario& scenario, const Plan& plan, const Cluster& cluster,
                  const ScheduleBudget& budget);

}  // namespace hsdp
