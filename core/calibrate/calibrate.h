// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "cost/collective_cost.h"

namespace hsdp {

// `hsdp-inspect calibrate` (docs/cost-model.md, "Calibrating a machine"):
// measures how fast this machine runs what the engine's runs do — Gloo
// collectives over loopback TCP between rank threads, by group size and by
// how many groups run at once on the shared cores; the engine's fp32
// Newton–Schulz; the memory-bound packing, unpacking and update — and fits
// the cost model's parameters to it: an `hsdp-cluster/1` cluster.

struct CalibrationOptions {
    std::vector<int> groupSizes{2, 4, 8};
    std::vector<int> concurrentGroups{1, 2, 4};
    int maxRanks = 16;  // configurations with more ranks (size x groups) are skipped
    // Collective sizes S (NCCL-tests' size: the gathered output, the buffer
    // broadcast), bytes.
    std::vector<int64_t> sizes{2048, 65536, 1 << 20, 4 << 20};
    int repetitions = 15;  // timed per (configuration, op, size); halved for sizes >= 1 MiB
    double cores = 0;      // 0: std::thread::hardware_concurrency()
    std::string name = "loopback";
    // Called with a line of progress ("all_gather over 4 x 2 ranks ...").
    std::function<void(const std::string&)> progress;
};

// One timed collective: the median over repetitions and groups of (last
// member's end - last member's start), as run --cluster times a run's.
struct CollectiveSample {
    CollectiveOp op = CollectiveOp::AllGather;
    int groupSize = 0;
    int groups = 0;     // groups running the same collective at once
    int computing = 0;  // threads running Newton-Schulz beside them all along
    int64_t sizeBytes = 0;
    double seconds = 0;
    double predictedSeconds = 0;  // by the fitted model
};

// One compute kernel timed: `amount` (FLOPs or bytes, as the schedule counts
// them) in `seconds` (median), by one thread alone.
struct ComputeSample {
    std::string kernel;  // newton_schulz | pack | unpack | update
    std::string shape;   // "256x256", "4194304 bf16"
    double amount = 0;
    double seconds = 0;
    double rate() const { return seconds > 0 ? amount / seconds : 0; }
};

struct Calibration {
    double hardwareCores = 0;
    std::vector<double> loadAverage;  // 1, 5, 15 minutes when measured (empty: unknown)
    std::vector<CollectiveSample> collectives;
    std::vector<ComputeSample> compute;
    // Newton–Schulz per thread with k threads at once: the compute side of the
    // shared-core model, as measured speed (rate with k threads / rate alone).
    std::vector<std::pair<int, double>> computeSharing;
    // The fit: the ring ops' figures (all_gather's samples; the link level's),
    // and broadcast's (the level's by_op.broadcast).
    LinkSpec ring;
    LinkSpec broadcast;
    double sharedCores = 0;           // from Newton-Schulz on 2, 4, 8 threads at once
    double collectiveMemberLoad = 1;  // fitted to the collectives on those cores
    double flopsPerSecond = 0;
    double memoryBytesPerSecond = 0;
    double fitMedianAbsRelError = 0;  // of the collective samples
    double fitMaxAbsRelError = 0;
    Cluster cluster;  // the fitted cluster, with the measurements in `calibration`
};

// The contention factor of the model on shared cores: how much longer a
// collective of `groupSize` ranks takes while `groups` such groups run at
// once on `cores` cores, 1 / sharedCoreSpeed(groupSize x groups, cores).
double sharedCoreSlowdown(int groupSize, int groups, double cores, double memberLoad = 1);

// Fits one op's link figures to `samples` (all of that op) on `cores` shared
// cores: the least squares of the relative error of
//   seconds = slowdown(n, groups, cores)
//             x (steps x (latency + n x latency per rank) + bus bytes / bandwidth)
//             + steps x idle fraction x idle wake-up
// (steps and bus bytes of Gloo's algorithms), every parameter >= 0. Fills
// each sample's predictedSeconds; efficiency 1.
LinkSpec fitLink(std::vector<CollectiveSample>& samples, double cores, double memberLoad = 1);

// Measures this machine (a few seconds to tens of seconds) and fits the model.
Calibration calibrate(const CalibrationOptions& options);

}  // namespace hsdp
