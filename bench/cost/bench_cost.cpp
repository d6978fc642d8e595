// SPDX-License-Identifier: Apache-2.0
// hsdp-bench cost: the CPU time of costPlan (docs/cost-model.md: the schedule,
// its collectives' times and the discrete-event pass) on the planner
// benchmark's guard point, 4,041 params on 8,192 ranks, generated as
// `hsdp-bench plan` generates it and costed on the h100-dgx preset. CPU time,
// not wall time, so that other processes on the machine do not count; the
// median of a few rounds against a goal of under a second.
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_common.h"
#include "cluster/reader.h"
#include "cost/plan_cost.h"
#include "cost/plan_scenario.h"
#include "plan/planner.h"
#include "scale_scenario.h"
#include "scenario/reader.h"

namespace hsdp::bench {

const char* const kCostHelp = R"(usage: hsdp-bench cost [--json] [--rounds N]

Measures the cost model: the CPU time of costPlan (the step's schedule, its
collectives' times and the discrete-event pass, docs/cost-model.md) on the
planner benchmark's guard point, 4,041 params on 8,192 ranks (mesh
[32, 32, 8]), generated as `hsdp-bench plan` generates it, planned once and
costed on the h100-dgx preset. Prints the median CPU seconds over the rounds
(process CPU time, user + system, so other processes' load does not count)
and whether it meets the goal of under 1 s.

options:
  --json       print one JSON object instead of text
  --rounds N   costPlan runs to take the median of (default 5)
  -h, --help   show this help

exit status: 0 the goal is met; 1 not; 2 bad usage.
)";

namespace {

using Json = nlohmann::ordered_json;

constexpr int kRounds = 5;
constexpr double kGoalCpuSeconds = 1.0;
constexpr const char* kCluster = "h100-dgx";

struct Options {
    bool json = false;
    int rounds = kRounds;
};

// Throws std::invalid_argument on an unknown option or a bad round count.
Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            o.json = true;
        } else if (args[i] == "--rounds") {
            if (i + 1 >= args.size()) throw std::invalid_argument("--rounds needs a value");
            const std::string value = args[++i];
            size_t used = 0;
            try {
                o.rounds = std::stoi(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size() || o.rounds < 1)
                throw std::invalid_argument("--rounds expects a positive count, got '" + value +
                                            "'");
        } else {
            throw std::invalid_argument("unknown option " + args[i]);
        }
    }
    return o;
}

}  // namespace

int costBenchmark(const std::vector<std::string>& args) {
    Options o;
    try {
        o = parseOptions(args);
    } catch (const std::invalid_argument& e) {
        std::cerr << "hsdp-bench cost: " << e.what() << " (usage: hsdp-bench cost [--json] "
                  << "[--rounds N])\n";
        return 2;
    }
    const ScalePoint point = guardPoint();
    const Scenario scenario = readScenario(scenarioJson(point));
    const Plan plan = planScenario(scenario);
    const Cluster cluster = readClusterPreset(kCluster);
    std::vector<double> samples;
    size_t collectives = 0, items = 0;
    for (int r = 0; r < o.rounds; ++r) {
        std::optional<PlanCost> cost;  // freed after the clock stops
        samples.push_back(cpuSecondsOf([&] { cost = costPlan(scenario, plan, cluster); }));
        collectives = cost->schedule.collectives.size();
        items = 0;
        for (const auto& work : cost->schedule.ranks) items += work.size();
    }
    const double cpu = median(samples);
    const bool met = cpu < kGoalCpuSeconds;
    if (o.json) {
        std::cout << Json{{"benchmark", "cost"},
                          {"params", point.params()},
                          {"ranks", point.ranks()},
                          {"cluster", kCluster},
                          {"collectives", collectives},
                          {"work_items", items},
                          {"rounds", o.rounds},
                          {"cpu_seconds", cpu},
                          {"cpu_seconds_rounds", samples},
                          {"goal_cpu_seconds", kGoalCpuSeconds},
                          {"goal_met", met}}
                         .dump(1)
                  << "\n";
    } else {
        std::cout << "costPlan at " << point.label() << " on " << kCluster << " (" << collectives
                  << " collectives, " << items << " work items; " << o.rounds
                  << " rounds, median)\n"
                  << "  cpu_seconds  " << cpu << "  (goal < " << kGoalCpuSeconds
                  << " s CPU: " << (met ? "met" : "NOT met") << ")\n";
    }
    return met ? 0 : 1;
}

}  // namespace hsdp::bench
