// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "cluster/cluster.h"
#include "cost/step_schedule.h"

namespace hsdp {

// How fast one device computes (docs/cost-model.md): Newton–Schulz FLOPs at
// `flopsPerSecond`, packing, unpacking and the update at `bytesPerSecond`.
struct ComputeRates {
    double flopsPerSecond = 0;
    double bytesPerSecond = 0;
    // [param]: seconds per FLOP of its Newton–Schulz, its matrices priced in
    // the scenario's dtype at their size (cost/newton_schulz_cost.h); where
    // empty or 0, FLOPs run at flopsPerSecond.
    std::vector<double> newtonSchulzSecondsPerFlop;
};
// The device's fp32 peak and memory bandwidth, each times its efficiency.
ComputeRates computeRatesOf(const Cluster& cluster);
// The same with every param's Newton–Schulz priced as the schedule runs it.
ComputeRates computeRatesOf(const Cluster& cluster, const StepSchedule& schedule);

// Predicted seconds of one work item (compute only; a collective's time is
// StepSimulation::collectiveSeconds).
double workSeconds(const RankWork& work, const ComputeRates& rates);

// One work item of one rank on the predicted timeline.
struct WorkSpan {
    double arrival = 0;  // when the rank reached it (a collective waits for its last member)
    double start = 0;
    double end = 0;
};

struct RankTimeline {
    std::vector<WorkSpan> spans;  // one per StepSchedule::ranks[rank] item
    double finish = 0;
    double busy = 0;     // computing or in a collective that runs
    double waiting = 0;  // arrived at a collective whose last member had not
};

// One item of the critical path: the chain of work that ends last, each link
// a rank's previous item or, at a collective, the member that arrived last.
struct CriticalStep {
    int rank = 0;
    int work = 0;  // index into StepSchedule::ranks[rank]
};

// The discrete-event pass over every rank's sequence: a compute item starts
// when its rank is free, a collective when its last member arrives, and ends
// on every member at once.
struct StepSimulation {
    std::vector<double> collectiveSeconds;  // per StepSchedule::collectives
    std::vector<double> collectiveStart;
    std::vector<RankTimeline> ranks;
    double makespan = 0;
    int lastRank = 0;                        // the rank that finishes last
    std::vector<CriticalStep> criticalPath;  // in time order
};

// Per rank and item, times that replace the model's (a replay of a measured
// run, accuracy/step_replay.h). `seconds`: a compute item's duration; for a
// collective, when this member ends after the collective's start (its own:
// a broadcast's root can end first, even before the last member arrives;
// never before its own arrival). NaN: the model's (workSeconds on the rates;
// the collective's time, every member ending together). `gapBefore`: the
// rank's idle time before the item, its own work between the items the
// schedule has. Missing rows: the model's, no idle time.
struct ItemTimes {
    std::vector<std::vector<double>> seconds;    // [rank][item]
    std::vector<std::vector<double>> gapBefore;  // [rank][item]
};

// `collectiveSeconds[c]` for every collective of the schedule. Throws
// std::logic_error when the sequences cannot complete (a collective some
// member never reaches), which a schedule made by stepSchedule never has.
StepSimulation simulateStep(const StepSchedule& schedule, std::vector<double> collectiveSeconds,
                            const ComputeRates& rates);
// The same with `items` replacing the rates where it gives a time.
StepSimulation simulateStep(const StepSchedule& schedule, std::vector<double> collectiveSeconds,
                            const ComputeRates& rates, const ItemTimes& items);

// The predicted seconds of every collective of `schedule` on `cluster`.
std::vector<double> collectiveSecondsOn(const StepSchedule& schedule, const Cluster& cluster);

}  // namespace hsdp
