// SPDX-License-Identifier: Apache-2.0
#include "strategy_report.h"

#include <cstdio>
#include <iostream>

#include "bench_common.h"
#include "strategy_measure.h"
#include "types/figures.h"

namespace hsdp::bench {

namespace {

using Json = nlohmann::ordered_json;

constexpr double kBytesGoal = 4.0, kTimeGoal = 2.5;
constexpr int kGoalRanks = 8;

Json sideJson(const StrategySide& s) {
    Json j = {{"seconds", median(s.seconds)},
              {"max_received_bytes_per_rank", s.maxReceivedBytes},
              {"mean_received_bytes_per_rank", s.meanReceivedBytes},
              {"max_peak_bytes_per_rank", s.maxPeakBytes},
              {"verified", s.verified}};
    if (!s.verified) j["verify_detail"] = s.detail;
    return j;
}

std::string row(const char* name, const Json& s) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "  %-11s %9.2f ms   received %10s max, %10s mean   peak %10s\n", name,
                  s["seconds"].get<double>() * 1e3,
                  humanBytes(double(s["max_received_bytes_per_rank"].get<int64_t>())).c_str(),
                  humanBytes(s["mean_received_bytes_per_rank"].get<double>()).c_str(),
                  humanBytes(double(s["max_peak_bytes_per_rank"].get<int64_t>())).c_str());
    return text;
}

}  // namespace

void measureStrategies(const GatherWorkload& w, int rounds, Json& out) {
    const StrategySamples s = measureStrategies(w, rounds);
    out["benchmark"] = "gather.strategies";
    out["rounds"] = rounds;
    out["all_gather"] = sideJson(s.allGather);
    out["all_to_all"] = sideJson(s.allToAll);
    const double bytes = double(s.allGather.maxReceivedBytes) / double(s.allToAll.maxReceivedBytes);
    const double time = median(s.allGather.seconds) / median(s.allToAll.seconds);
    out["received_bytes_ratio"] = bytes;
    out["time_ratio"] = time;
    out["peak_memory_ratio"] = double(s.allGather.maxPeakBytes) / double(s.allToAll.maxPeakBytes);
    Json failed = Json::array();
    if (w.ranks >= kGoalRanks && bytes < kBytesGoal)
        failed.push_back("received_bytes_ratio " + std::to_string(bytes) + " < 4");
    if (w.ranks >= kGoalRanks && time < kTimeGoal)
        failed.push_back("time_ratio " + std::to_string(time) + " < 2.5");
    if (!s.allGather.verified || !s.allToAll.verified)
        failed.push_back("a rank's update slice differs from its shard");
    out["goals_apply"] = w.ranks >= kGoalRanks;
    out["failed_goals"] = failed;
    out["goals_met"] = failed.empty();
}

void printStrategies(const Json& j) {
    std::cout << "gather strategies: " << j["ranks"] << " ranks in one shard group (Gloo, loopback "
              << "TCP), " << j["params"] << " params f32, per-rank shards "
              << j["workload"].get<std::string>() << "; gather + update return (Newton–Schulz "
              << "left out, the same under both), medians over " << j["rounds"]
              << " interleaved rounds of the slowest rank; bytes each rank takes off the wire "
                 "(real sizes: nothing is shrunk), peak = the step's buffers on one rank\n"
              << "  load average before: " << j["load_average_before"].get<std::string>()
              << "   after: " << j["load_average_after"].get<std::string>() << "\n"
              << row("all-gather", j["all_gather"]) << row("all-to-all", j["all_to_all"]);
    std::printf("  received_bytes_ratio %.2f  (goal >= %g at %d ranks or more)\n",
                j["received_bytes_ratio"].get<double>(), kBytesGoal, kGoalRanks);
    std::printf("  time_ratio           %.2f  (goal >= %g at %d ranks or more)\n",
                j["time_ratio"].get<double>(), kTimeGoal, kGoalRanks);
    std::printf("  peak_memory_ratio    %.2f\n", j["peak_memory_ratio"].get<double>());
    std::cout << "  verified (every rank's slice == its shard, both strategies): "
              << (j["all_gather"]["verified"].get<bool>() && j["all_to_all"]["verified"].get<bool>()
                      ? "yes"
                      : "NO")
              << "\n";
    for (const auto& f : j["failed_goals"])
        std::cout << "GOAL FAILED: " << f.get<std::string>() << "\n";
    std::cout.flush();
}

}  // namespace hsdp::bench
