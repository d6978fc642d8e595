// SPDX-License-Identifier: Apache-2.0
#include <chrono>
#include <cstdio>
#include <iostream>

#include "calibrate/calibrate.h"
#include "cli_args.h"
#include "cluster/reader.h"
#include "cluster/writer.h"
#include "commands.h"
#include "job/calibrate_from_job.h"
#include "output_paths.h"

namespace hsdp::cli {

const char* const kCalibrateHelp =
    R"(usage: hsdp-inspect calibrate [-o FILE] [--name NAME] [--cores N] [--repetitions N]
       hsdp-inspect calibrate --from-job DUMP... --cluster BASE [-o FILE] [--name NAME]

Measures this machine as the engine's runs use it and writes an hsdp-cluster/1
file (docs/cluster-format.md) whose figures are the measurements, fitted to the
cost model (docs/cost-model.md, "Calibrating a machine"):

  - Gloo all_gather and broadcast over loopback TCP between rank threads, for
    groups of 2, 4 and 8 ranks, with 1, 2 and 4 such groups at once (at most
    16 rank threads), at sizes 2 KiB .. 4 MiB: fitted to
      seconds = max(1, busy ranks / shared_cores)
                x (steps x (latency + n x latency per rank) + bus bytes / bandwidth)
    with Gloo's steps and bytes (broadcast: a binomial tree), all_gather's
    samples for the ring ops (links.*: latency_us, latency_us_per_rank,
    bandwidth_gigabytes_per_s), broadcast's for links.*.by_op.broadcast, and
    the shared_cores that fits both best;
  - the engine's fp32 Newton-Schulz (device.peak_tflops, every dtype: the
    engine computes in fp32) and packing, unpacking and the update
    (device.memory_bandwidth_gigabytes_per_s), on one thread.

The measurements, the fit's error on each and the machine's load average go
into the file's "calibration" object. Progress goes to stderr; it takes about
10-30 s. A busy machine (builds, tests) measures slower: check `uptime` first.
`plan --cluster FILE` and `run --cluster FILE` use the result.

With --from-job, nothing is measured here: a real job's own collectives, timed
by its Flight Recorder dumps (with TORCH_NCCL_ENABLE_TIMING=1) or its Kineto
traces (folders or files, as check-job reads them), fit the link figures of
BASE, the cluster it ran on (a preset or a file). Each collective's time is
the shortest of its members' (the last to arrive waits least), its size as
NCCL-tests counts it; per link level (intra_node, inter_node) the fit is
      seconds = steps x latency + bus bytes / (rails x bandwidth)
by least squares of the relative error, with BASE's algorithms. The fit's
median error on those collectives, before and after, goes to stderr; the
file is BASE with the fitted levels, its name BASE-from-job by default.

options:
  -o, --output FILE  write the cluster file to FILE (default: standard output)
  --name NAME        the cluster's name (default loopback)
  --cores N          the cores the rank threads share, as the fit's starting
                     point for the hardware (default: what the system reports)
  --repetitions N    timed repetitions per collective size (default 15)
  --from-job         fit BASE to the job record DUMP... instead of measuring
  --cluster BASE     with --from-job: the cluster the job ran on
  -h, --help         show this help

The shipped preset `loopback` (resources/clusters/loopback.json) is this
command's output on the build machine: `hsdp-inspect calibrate -o
resources/clusters/loopback.json` regenerates it.

exit status: 0 written, 1 (--from-job) no timed collective to fit, 2 bad
usage, a record or cluster that cannot be read, or an unwritable FILE.
)";

int calibrateCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.option("--output").option("--name").option("--cores").option("--repetitions");
    parser.flag("--from-job").option("--cluster");
    // ArgParser knows long options only: `-o FILE` is read as `--output FILE`.
    std::vector<std::string> normalized;
    for (const auto& a : args) normalized.push_back(a == "-o" ? "--output" : a);
    parser.parse(normalized);
    if (parser.has("--from-job") != parser.value("--cluster").has_value())
        throw UsageError(
            "--from-job and --cluster BASE go together: the job's record and the "
            "cluster it ran on");
    if (parser.has("--from-job")) {
        for (const char* measuring : {"--cores", "--repetitions"})
            if (parser.value(measuring))
                throw UsageError(std::string(measuring) +
                                 " measures this machine: not with --from-job");
        const auto output = parser.value("--output");
        if (output) checkOutputFile("-o", *output);
        return calibrateFromJob(parser.positionals(), *parser.value("--cluster"),
                                parser.value("--name"), output);
    }
    if (!parser.positionals().empty())
        throw UsageError("calibrate takes no positional arguments (got '" +
                         parser.positionals()[0] + "')");
    const std::optional<std::string> output = parser.value("--output");
    if (output) checkOutputFile("-o", *output);
    CalibrationOptions options;
    if (auto name = parser.value("--name")) {
        if (name->empty()) throw UsageError("--name expects a non-empty name");
        options.name = *name;
    }
    if (auto cores = parser.value("--cores")) options.cores = parseNumber("--cores", *cores, 1);
    if (auto reps = parser.value("--repetitions"))
        options.repetitions = int(parseInteger("--repetitions", *reps, 1));
    const auto started = std::chrono::steady_clock::now();
    options.progress = [&](const std::string& line) {
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        char stamp[32];
        std::snprintf(stamp, sizeof stamp, "[%5.1fs] ", t);
        std::cerr << "calibrate " << stamp << line << "\n";
    };
    const Calibration cal = calibrate(options);
    const std::string text = writeCluster(cal.cluster);
    readCluster(text);  // what we write, the strict reader reads
    char summary[800];
    std::snprintf(summary, sizeof summary,
                  "calibrate: ring ops %.1f us/step + %.2f us per rank, %.2f GB/s, idle wake-up "
                  "%.0f us; broadcast %.1f us/step + %.2f us per rank, %.2f GB/s, idle wake-up "
                  "%.0f us; shared cores %.2f, member load %.2f; Newton-Schulz %.2f "
                  "GFLOP/s; memory %.2f GB/s; fit error on %zu collectives: median %.1f %%, max "
                  "%.1f %%\n",
                  cal.ring.latencySeconds * 1e6, cal.ring.latencyPerRankSeconds * 1e6,
                  cal.ring.bandwidthBytesPerSecond / 1e9, cal.ring.idleWakeSeconds * 1e6,
                  cal.broadcast.latencySeconds * 1e6, cal.broadcast.latencyPerRankSeconds * 1e6,
                  cal.broadcast.bandwidthBytesPerSecond / 1e9, cal.broadcast.idleWakeSeconds * 1e6,
                  cal.sharedCores, cal.collectiveMemberLoad, cal.flopsPerSecond / 1e9,
                  cal.memoryBytesPerSecond / 1e9, cal.collectives.size(),
                  100 * cal.fitMedianAbsRelError, 100 * cal.fitMaxAbsRelError);
    std::cerr << summary;
    return writeClusterFile(text, output);
}

}  // namespace hsdp::cli
