// hsdp-bench plan: the planner's heap-based owner assignment against the
// reference's straightforward O(params x coords) scan, measured in one run.
#include <iostream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "large_plan.h"
#include "plan/ownership.h"

namespace hsdp::bench {

namespace {

constexpr int kParams = 20000;
constexpr int64_t kCoords = 1024;
constexpr int kRounds = 5;

// Parameter sizes drawn from real layer shapes so ties and near-ties occur.
std::vector<OwnerItem> makeItems() {
    const int64_t shapes[] = {4096 * 4096, 1024 * 4096, 14336 * 4096, 4096, 8192 * 8192, 128};
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> pick(0, 5);
    std::vector<OwnerItem> items;
    for (int p = 0; p < kParams; ++p) items.push_back({p, shapes[pick(rng)]});
    return items;
}

}  // namespace

int planBenchmark(const std::vector<std::string>& args) {
    bool json = !args.empty() && args[0] == "--json";
    auto items = makeItems();
    OwnerAssignment heap, scan;
    auto samples = interleaved(kRounds, {[&] { heap = assignOwners(items, kCoords); },
                                         [&] { scan = assignOwnersByScan(items, kCoords); }});
    bool same = heap.owners == scan.owners && heap.loads == scan.loads;
    double heapS = median(samples[0]), scanS = median(samples[1]);
    Scenario large = largePlanScenario();
    std::vector<LargePlanTiming> timings;
    for (int r = 0; r < kRounds; ++r) timings.push_back(timeLargePlan(large));
    std::vector<double> planTimes, totalTimes;
    for (const auto& t : timings) {
        planTimes.push_back(t.planSeconds);
        totalTimes.push_back(t.planSeconds + t.jsonSeconds);
    }
    nlohmann::ordered_json out = {{"benchmark", "plan.owner_assignment"},
                                  {"params", kParams},
                                  {"coords", kCoords},
                                  {"rounds", kRounds},
                                  {"heap_seconds", heapS},
                                  {"scan_seconds", scanS},
                                  {"heap_vs_scan_speedup", scanS / heapS},
                                  {"identical_owners", same},
                                  {"large_plan",
                                   {{"params", large.params.size()},
                                    {"ranks", large.worldSize},
                                    {"plan_seconds", median(planTimes)},
                                    {"plan_and_json_seconds", median(totalTimes)},
                                    {"json_bytes", timings.front().jsonBytes}}}};
    if (json) {
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "owner assignment, " << kParams << " params x " << kCoords << " coords ("
                  << kRounds << " interleaved rounds, medians)\n"
                  << "  heap  " << heapS * 1e3 << " ms\n  scan  " << scanS * 1e3 << " ms\n"
                  << "  heap_vs_scan_speedup  " << scanS / heapS << "x\n"
                  << "  identical owners and loads: " << (same ? "yes" : "NO") << "\n"
                  << "plan of " << large.params.size() << " params on " << large.worldSize
                  << " ranks (medians)\n  plan  " << median(planTimes) * 1e3
                  << " ms\n  plan + JSON (" << timings.front().jsonBytes / 1e6 << " MB)  "
                  << median(totalTimes) * 1e3 << " ms\n";
    }
    return same ? 0 : 1;
}

}  // namespace hsdp::bench
