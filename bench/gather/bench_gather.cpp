// SPDX-License-Identifier: Apache-2.0
// hsdp-bench gather: the fused all-gather of the optimizer step (core/exec,
// corrected mode) against one all-gather per parameter and against one raw
// Gloo all-gather of the same bytes, 8 rank threads over loopback TCP, all
// measured side by side in one run; then a sweep over the shard size.
// --shard-sizes FILE runs exactly the shards a file lists instead (no sweep),
// so the same workload can be timed against an implementation elsewhere.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "gather_measure.h"
#include "gather_options.h"
#include "runtime/allocator_policy.h"
#include "shard_sizes_file.h"
#include "strategy_report.h"

namespace hsdp::bench {

const char* const kGatherHelp =
    R"(usage: hsdp-bench gather [--json] [--shard-sizes FILE] [--rounds N] [--ranks N]
                         [--strategy all-to-all]

Measures the fused all-gather of the optimizer step (core/exec, corrected
mode) against one all-gather per parameter and against one raw Gloo
all-gather of the same bytes: rank threads over loopback TCP, interleaved
rounds, medians of the slowest rank, the fused time split into pack, gather
and unpack. First under glibc's default allocator (fused and raw), then
under the caching allocator; then, for the built-in workload, a sweep over
the shard size (1 KiB to 1 MiB) and the crossover where fusing stops
paying. Bandwidth in GB/s (1 GB/s = 1e9 bytes/s, the NCCL-tests
convention) of the payload one rank ends up holding. Built-in workload: 200
f32 params, per-rank shards log-uniform in 1-64 KiB; goals: fused >= 3x
faster than unfused, >= 0.9x the raw throughput.

options:
  --json               print one JSON object instead of text
  --shard-sizes FILE   run exactly these per-rank shard bytes, one a line
                       ('#' lines are comments); no sweep, goals not applied
  --rounds N           rounds of every measurement, 1-1000 (default 15; 9
                       under the default allocator, 7 per sweep point)
  --ranks N            rank threads, 2-64 (default 8)
  --strategy all-to-all
                       compare the two gather strategies of the step instead:
                       all-to-all (each matrix only to the rank computing it,
                       each rank back only its slice) against the fused
                       all-gather + update broadcast, interleaved rounds of
                       gather + update return (Newton-Schulz left out): bytes
                       received per rank, time, peak memory of the buffers;
                       goals at 8 ranks or more: >= 4x fewer bytes received,
                       >= 2.5x less time
  -h, --help           show this help

exit status: 0 every goal met and every gathered tensor verified; 1 not;
2 bad usage or an unusable --shard-sizes file.
)";

namespace {

using Json = nlohmann::ordered_json;

constexpr int kParams = 200;
constexpr int64_t kMinShard = 1024, kMaxShard = 64 * 1024;
constexpr unsigned kSeed = 20261130;
constexpr int kRounds = 15;
constexpr int kDefaultAllocatorRounds = 9;
constexpr int kSweepRounds = 7;
constexpr int64_t kSweepBudget = 4 << 20;  // per-rank payload cap of one sweep point
constexpr double kSpeedupGoal = 3.0, kThroughputGoal = 0.9, kPaysOff = 1.1;

std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

Json phases(const std::vector<GatherTimings>& split) {
    auto medianOf = [&](double GatherTimings::*phase) {
        std::vector<double> v;
        for (const auto& s : split) v.push_back(s.*phase);
        return median(v);
    };
    return {{"pack", medianOf(&GatherTimings::pack)},
            {"gather", medianOf(&GatherTimings::gather)},
            {"unpack", medianOf(&GatherTimings::unpack)}};
}

// Medians and ratios; bytes/s use one numerator for every variant, the
// payload one rank ends up holding (ranks x its shard payload).
Json figures(const GatherWorkload& w, const GatherSamples& s) {
    const double gathered = double(w.payloadBytes()) * w.ranks;
    const double fused = median(s.fused), raw = median(s.raw);
    Json j = {{"rounds", int(s.fused.size())}, {"verified", s.verified}, {"fused_seconds", fused}};
    if (!s.unfused.empty()) j["unfused_seconds"] = median(s.unfused);
    j["raw_seconds"] = raw;
    j["fused_bytes_per_second"] = gathered / fused;
    if (!s.unfused.empty()) j["unfused_bytes_per_second"] = gathered / median(s.unfused);
    j["raw_bytes_per_second"] = gathered / raw;
    j["fused_phases_seconds"] = phases(s.phases);
    if (!s.unfused.empty()) j["fused_vs_unfused_speedup"] = median(s.unfused) / fused;
    j["fused_vs_raw_throughput"] = raw / fused;
    j["fused_views"] = s.views;
    if (!s.verified) j["verify_detail"] = s.detail;
    return j;
}

Json sweep(int rounds, int ranks, bool& verified) {
    Json points = Json::array();
    for (int64_t size : {1LL << 10, 4LL << 10, 16LL << 10, 64LL << 10, 256LL << 10, 1LL << 20}) {
        const int params = int(std::min<int64_t>(kParams, kSweepBudget / size));
        const auto w = uniformWorkload(params, size, ranks);
        const auto s = measureGather(w, {rounds, true, false, false});
        verified = verified && s.verified;
        const double fused = median(s.fused), unfused = median(s.unfused);
        points.push_back({{"shard_bytes", size},
                          {"params", params},
                          {"fused_seconds", fused},
                          {"unfused_seconds", unfused},
                          {"speedup", unfused / fused},
                          {"verified", s.verified}});
    }
    return points;
}

// The first swept size where fusing gains less than kPaysOff; null if none.
Json crossover(const Json& points) {
    for (const auto& p : points)
        if (p["speedup"].get<double>() < kPaysOff) return p["shard_bytes"];
    return nullptr;
}

std::string ms(const Json& seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%8.2f ms", seconds.get<double>() * 1e3);
    return text;
}

// NCCL-tests GB/s: 1 GB/s = 1e9 bytes/s.
std::string rate(const Json& bytesPerSecond) {
    char text[32];
    std::snprintf(text, sizeof text, "%7.3f GB/s", bytesPerSecond.get<double>() / 1e9);
    return text;
}

std::string split(const Json& ph) {
    return "pack " + ms(ph["pack"]) + ", gather " + ms(ph["gather"]) + ", unpack " +
           ms(ph["unpack"]);
}

void printSweep(const Json& j) {
    if (j["sweep"].is_null()) {
        std::cout << "sweep: not run (--shard-sizes runs only the listed shards)\n";
        return;
    }
    std::cout << "sweep (uniform shards, " << j["sweep_rounds"] << " rounds, caching allocator):\n"
              << "     shard  params   fused ms  unfused ms  speedup\n";
    for (const auto& p : j["sweep"])
        std::printf("  %8lld  %6d  %9.2f  %10.2f  %6.2fx\n",
                    (long long)p["shard_bytes"].get<int64_t>(), p["params"].get<int>(),
                    p["fused_seconds"].get<double>() * 1e3,
                    p["unfused_seconds"].get<double>() * 1e3, p["speedup"].get<double>());
    std::cout << "  crossover (speedup < " << kPaysOff << "): " << j["crossover"].get<std::string>()
              << "\n";
}

void printHeader(const Json& j) {
    std::cout << "fused all-gather: " << j["ranks"] << " ranks (Gloo, loopback TCP), "
              << j["params"] << " params f32, per-rank shards " << j["workload"].get<std::string>()
              << ", " << j["payload_bytes_per_rank"] << " B/rank (" << j["packed_bytes_per_rank"]
              << " B packed); medians over interleaved rounds of the slowest rank; bandwidth in "
                 "GB/s (1e9 bytes/s, NCCL-tests) of the bytes one rank ends up holding\n"
              << "  load average before: " << j["load_average_before"].get<std::string>()
              << "   after: " << j["load_average_after"].get<std::string>() << "\n";
}

void printText(const Json& j) {
    const auto& m = j["main"];
    const auto& d = j["default_allocator"];
    printHeader(j);
    std::cout << "allocator " << j["allocator"].get<std::string>() << ", " << m["rounds"]
              << " rounds:\n"
              << "  fused    " << ms(m["fused_seconds"]) << "  "
              << rate(m["fused_bytes_per_second"]) << "   (" << split(m["fused_phases_seconds"])
              << ")\n"
              << "  unfused  " << ms(m["unfused_seconds"]) << "  "
              << rate(m["unfused_bytes_per_second"]) << "\n"
              << "  raw      " << ms(m["raw_seconds"]) << "  " << rate(m["raw_bytes_per_second"])
              << "\n"
              << "  fused_vs_unfused_speedup  " << m["fused_vs_unfused_speedup"].get<double>()
              << "  (goal >= " << kSpeedupGoal << ")\n"
              << "  fused_vs_raw_throughput   " << m["fused_vs_raw_throughput"].get<double>()
              << "  (goal >= " << kThroughputGoal << ")\n"
              << "  fused tensors handed out as views of the gathered buffer: " << m["fused_views"]
              << " of " << j["params"] << "\n"
              << "  verified (fused == unfused == truth on every rank): "
              << (m["verified"].get<bool>() ? "yes" : "NO")
              << "\nglibc default allocator (measured first), " << d["rounds"]
              << " rounds, for reference:\n"
              << "  fused    " << ms(d["fused_seconds"]) << "   ("
              << split(d["fused_phases_seconds"]) << ")\n"
              << "  raw      " << ms(d["raw_seconds"]) << "\n  fused_vs_raw_throughput   "
              << d["fused_vs_raw_throughput"].get<double>() << "\n";
    printSweep(j);
    if (!j["goals_apply"].get<bool>())
        std::cout << "goals: not applied (they are set for the built-in workload)\n";
    for (const auto& f : j["failed_goals"])
        std::cout << "GOAL FAILED: " << f.get<std::string>() << "\n";
    std::cout.flush();
}

std::string goalText(const Json& m, const char* figure, double goal) {
    char text[96];
    std::snprintf(text, sizeof text, "%s %.3f < %g", figure, m[figure].get<double>(), goal);
    return text;
}

// Which goals the main figures miss (the speed goals only for the built-in
// workload), and whether everything verified.
Json failedGoals(const Json& out, bool verified) {
    Json failed = Json::array();
    const auto& m = out["main"];
    if (out["goals_apply"].get<bool>()) {
        if (m["fused_vs_unfused_speedup"].get<double>() < kSpeedupGoal)
            failed.push_back(goalText(m, "fused_vs_unfused_speedup", kSpeedupGoal));
        if (m["fused_vs_raw_throughput"].get<double>() < kThroughputGoal)
            failed.push_back(goalText(m, "fused_vs_raw_throughput", kThroughputGoal));
    }
    if (!verified) failed.push_back("gathered tensors differ between variants or from the truth");
    return failed;
}

// What runs: the options and the workload they name (throws on bad input).
struct GatherRun {
    GatherOptions options;
    GatherWorkload workload;
    bool builtIn() const { return options.shardSizesFile.empty(); }
    int rounds(int fallback) const { return options.rounds > 0 ? options.rounds : fallback; }
};

GatherRun gatherRun(const std::vector<std::string>& args) {
    GatherRun run;
    run.options = parseGatherOptions(args);
    const int ranks = run.options.ranks;
    run.workload = run.builtIn()
                       ? logUniformWorkload(kParams, kMinShard, kMaxShard, kSeed, ranks)
                       : shardSizesWorkload(readShardSizes(run.options.shardSizesFile), ranks);
    return run;
}

Json header(const GatherRun& run) {
    const auto& w = run.workload;
    const auto sizes = shardSizesOf(w);
    Json out = {{"benchmark", "gather.fused_allgather"},
                {"ranks", w.ranks},
                {"dtype", "f32"},
                {"params", w.params()}};
    if (run.builtIn()) {
        out["workload"] = "log-uniform 1-64 KiB (seed " + std::to_string(kSeed) + ")";
        out["seed"] = kSeed;
    } else {
        out["workload"] = "from " + run.options.shardSizesFile;
        out["shard_sizes_file"] = run.options.shardSizesFile;
    }
    out["shard_bytes_min"] = *std::min_element(sizes.begin(), sizes.end());
    out["shard_bytes_max"] = *std::max_element(sizes.begin(), sizes.end());
    out["shard_bytes"] = sizes;  // one line each of an equivalent --shard-sizes file
    out["payload_bytes_per_rank"] = w.payloadBytes();
    out["packed_bytes_per_rank"] = w.packedBytes();
    out["load_average_before"] = loadAverage();
    return out;
}

// First under glibc's defaults (fused and raw only), then under the caching
// policy for the main figures and (built-in workload) the sweep.
void measureAll(const GatherRun& run, Json& out) {
    const auto& w = run.workload;
    const auto plain = measureGather(w, {run.rounds(kDefaultAllocatorRounds), false, true, false});
    out["allocator"] = useCachingAllocator();
    const auto s = measureGather(w, {run.rounds(kRounds), true, true, true});
    out["main"] = figures(w, s);
    out["default_allocator"] = figures(w, plain);
    bool verified = s.verified && plain.verified;
    out["sweep"] = nullptr;
    if (run.builtIn()) {
        out["sweep_rounds"] = run.rounds(kSweepRounds);
        out["sweep"] = sweep(run.rounds(kSweepRounds), w.ranks, verified);
        out["crossover_shard_bytes"] = crossover(out["sweep"]);
        out["crossover"] =
            out["crossover_shard_bytes"].is_null()
                ? "none up to 1 MiB"
                : std::to_string(out["crossover_shard_bytes"].get<int64_t>()) + " B per rank";
    }
    out["load_average_after"] = loadAverage();
    out["goals_apply"] = run.builtIn();
    out["failed_goals"] = failedGoals(out, verified);
    out["goals_met"] = out["failed_goals"].empty();
}

}  // namespace

int gatherBenchmark(const std::vector<std::string>& args) {
    GatherRun run;
    try {
        run = gatherRun(args);
    } catch (const std::runtime_error& error) {  // GatherUsageError, ShardSizesError
        std::cerr << "hsdp-bench gather: " << error.what() << "\n"
                  << "usage: hsdp-bench gather [--json] [--shard-sizes FILE] [--rounds N] "
                     "[--ranks N] [--strategy all-to-all]\n";
        return 2;
    }
    Json out = header(run);
    const bool strategies = !run.options.strategy.empty();
    if (strategies) {
        useCachingAllocator();
        measureStrategies(run.workload, run.rounds(kRounds), out);
        out["load_average_after"] = loadAverage();
    } else {
        measureAll(run, out);
    }
    if (run.options.json)
        std::cout << out.dump(1) << "\n";
    else if (strategies)
        printStrategies(out);
    else
        printText(out);
    return out["goals_met"].get<bool>() ? 0 : 1;
}

}  // namespace hsdp::bench
