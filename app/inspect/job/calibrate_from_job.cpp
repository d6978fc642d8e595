// SPDX-License-Identifier: Apache-2.0
// `hsdp-inspect calibrate --from-job DUMP... --cluster BASE`: the base
// cluster's link figures fitted to a job's own timed collectives.
#include "calibrate_from_job.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "calibrate/job_calibration.h"
#include "cli_args.h"
#include "cluster/reader.h"
#include "cluster/writer.h"
#include "commands.h"
#include "cost/plan_cost.h"
#include "job_record/job_record_error.h"
#include "job_record/job_record_reader.h"
#include "output_paths.h"
#include "types/figures.h"

namespace hsdp::cli {

namespace {

std::string linkText(const LinkSpec& link) {
    // A fit whose collectives are all latency-bound leaves the bandwidth unknown.
    const std::string bandwidth = link.effectiveBandwidth() >= 1e14
                                      ? std::string("bandwidth unresolved (latency-bound)")
                                      : bandwidthText(link.effectiveBandwidth());
    return "latency " + durationText(link.stepLatency(0)) + " a step, " + bandwidth;
}

// The level's own figures and each by_op entry's, fitted then the base's.
std::string figuresText(const Cluster& fitted, const Cluster& base, LinkLevel level,
                        const std::string& baseName) {
    std::string text = "ring ops " + linkText(fitted.link(level)) + " (" + baseName + ": " +
                       linkText(base.link(level)) + ")";
    const auto& byOp = level == LinkLevel::IntraNode ? fitted.intraNodeByOp : fitted.interNodeByOp;
    for (const auto& [op, spec] : byOp)
        text += "; " + op + " " + linkText(spec) + " (" + baseName + ": " +
                linkText(base.link(level, op)) + ")";
    return text;
}

std::string summaryText(const JobCalibration& fit, const Cluster& baseCluster,
                        const std::string& base) {
    std::string text = "calibrate --from-job: " + groupedCount(int64_t(fit.collectives)) +
                       " collectives recorded on every member, " +
                       groupedCount(int64_t(fit.samples.size())) + " of them timed and priced (" +
                       groupedCount(int64_t(fit.untimed)) + " without a completed duration, " +
                       groupedCount(int64_t(fit.unpriced)) + " ops the model does not price)\n";
    for (const LevelFit& level : fit.levels) {
        text += "  " + std::string(linkLevelName(level.level)) + "  " +
                groupedCount(int64_t(level.samples)) + " collectives: ";
        text += level.fitted ? figuresText(fit.cluster, baseCluster, level.level, base)
                             : "kept " + base +
                                   "'s figures (fewer than two sizes to tell latency from "
                                   "bandwidth)";
        text += "; median error " + percentText(level.medianErrorBefore) + " -> " +
                percentText(level.medianErrorAfter) + "\n";
    }
    text += "  median error on the job's collectives: " + percentText(fit.medianErrorBefore) +
            " with " + base + "'s figures, " + percentText(fit.medianErrorAfter) +
            " fitted (the collectives the fit was made on: a check of the fit, not of other "
            "plans)\n";
    return text;
}

// The fitted cluster as a file: named, described, its evidence in `calibration`.
Cluster describedCluster(const JobCalibration& fit, const std::string& base,
                         const std::string& name) {
    Cluster cluster = fit.cluster;
    cluster.name = name;
    cluster.description = base + " with its link figures fitted to " +
                          std::to_string(fit.samples.size()) +
                          " collectives of a job (hsdp-inspect calibrate --from-job)";
    cluster.validation = {};
    nlohmann::ordered_json evidence = {{"source", "job"},
                                       {"base", base},
                                       {"collectives", fit.samples.size()},
                                       {"median_error_before", fit.medianErrorBefore},
                                       {"median_error_after", fit.medianErrorAfter}};
    cluster.calibration = evidence.dump();
    return cluster;
}

}  // namespace

int calibrateFromJob(const std::vector<std::string>& dumps, const std::string& baseName,
                     const std::optional<std::string>& name,
                     const std::optional<std::string>& output) {
    if (dumps.empty()) throw UsageError("--from-job takes at least one DUMP file or folder");
    const std::optional<Cluster> base = loadCluster(baseName);
    if (!base) return 2;
    const std::optional<JobRecord> job = loadJobRecord(dumps);
    if (!job) return 2;
    JobCalibration fit;
    try {
        fit = calibrateFromJob(*job, *base);
    } catch (const std::invalid_argument& error) {
        std::cerr << "hsdp-inspect: calibrate --from-job: " << error.what() << "\n";
        return 1;
    }
    std::cerr << summaryText(fit, clusterForWorld(*base, int(job->worldSize)), base->name);
    const std::string text =
        writeCluster(describedCluster(fit, base->name, name.value_or(base->name + "-from-job")));
    readCluster(text);  // what we write, the strict reader reads
    return writeClusterFile(text, output);
}

}  // namespace hsdp::cli
