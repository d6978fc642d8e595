// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster.h"
#include "cost/collective_cost.h"
#include "job_record/job_record.h"

namespace hsdp {

// `hsdp-inspect calibrate --from-job` (docs/cost-model.md, "Calibrating from
// a job"): a real job's own collectives, timed by its Flight Recorder (with
// timing on) or its Kineto traces, fit the link figures of the cluster it
// ran on, so that the predictions of other plans on that cluster rest on it.

// One collective of the job with its time: the shortest of its members'
// durations (the last member to arrive waits least: its duration is the
// transfer's, as NCCL-tests time it), its size as NCCL-tests counts it
// (collective_cost.h) and what the cost model predicts for it before and
// after the fit.
struct JobCollectiveSample {
    CollectiveOp op = CollectiveOp::AllGather;
    std::vector<int> ranks;  // the process group's global ranks
    int64_t sizeBytes = 0;
    double seconds = 0;
    LinkLevel level = LinkLevel::IntraNode;
    double predictedBefore = 0;
    double predictedAfter = 0;
};

// The fit of one link level: seconds = steps x latency + bus bytes / (rails x
// bandwidth), least squares of the relative error, both figures >= 0; an op
// the base prices with figures of its own (by_op) is fitted apart.
struct LevelFit {
    LinkLevel level = LinkLevel::IntraNode;
    size_t samples = 0;
    bool fitted = false;           // false: fewer than two sizes per figures; the base's are kept
    LinkSpec before, after;        // the level's own figures (by_op ones are in the cluster)
    double medianErrorBefore = 0;  // |predicted - recorded| / recorded, the median
    double medianErrorAfter = 0;
};

struct JobCalibration {
    std::vector<JobCollectiveSample> samples;
    size_t collectives = 0;  // collectives in the record (every member's entry seen)
    size_t untimed = 0;      // of those, without a duration on every member, or not completed
    size_t unpriced = 0;     // of those, ops the model does not price (barrier, p2p, coalesced)
    std::vector<LevelFit> levels;
    double medianErrorBefore = 0;
    double medianErrorAfter = 0;
    Cluster cluster;  // the base with the fitted levels, grown to the job's world
};

// The cost model's op for a recorded collective's operation ("_all_gather_base",
// "allreduce", "reduce_scatter_tensor", "broadcast", ...); nullopt for what it
// does not price.
std::optional<CollectiveOp> recordedOp(std::string_view operation);

// The record's collectives that every member timed, each priced on `cluster`
// (grown to the job's world) as predictedBefore; with the counts of those
// left out.
struct TimedCollectives {
    std::vector<JobCollectiveSample> samples;
    size_t collectives = 0, untimed = 0, unpriced = 0;  // as JobCalibration's
    Cluster cluster;                                    // as priced: grown to the job's world
};
TimedCollectives timedCollectives(const JobRecord& job, const Cluster& cluster);

// Fits `base`'s link levels to the job's timed collectives. Throws
// std::invalid_argument when the record has no timed collective to fit.
JobCalibration calibrateFromJob(const JobRecord& job, const Cluster& base);

}  // namespace hsdp
