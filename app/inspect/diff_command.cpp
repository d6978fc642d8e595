// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect diff A.json B.json: what changed between the plans of two scenarios.
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "cost/cost_diff.h"
#include "export/cost_diff_json.h"
#include "export/cost_diff_text.h"
#include "plan/planner.h"
#include "plan_diff/plan_diff.h"
#include "plan_diff/plan_diff_json.h"
#include "plan_diff/plan_diff_text.h"

namespace hsdp::cli {

const char* const kDiffHelp =
    R"(usage: hsdp-inspect diff BEFORE AFTER [--json] [--cluster NAME|FILE]

Plans two hsdp-scenario/1 files and lists what moved from BEFORE to AFTER:
diagnostics that appeared or disappeared, owners that moved, owner-load
imbalance (max/mean) before/after, world size, meshes and options, parameters
added, removed or changed (matched by name: group, batch, owner, placements,
shape, dtype), owner loads per replicate coordinate, schedule, TP transition
decisions and per-rank ownership. Groups are matched by mesh and layout, not id.

With --cluster, also costs both plans on that cluster (as plan --cluster
does) and compares them: the predicted step time and each phase's share of
the critical path, the worst rank's peak memory (which rank, and its resident
bytes), which plan is faster and which lighter, and which of the two fit the
device's memory (by how much each is over).

options:
  --json        print the comparison as hsdp-plan-diff/1 JSON
  --cluster NAME|FILE
                a preset (h100-dgx, a100-dgx, h200-hgx, loopback; grown to
                as many nodes as the world needs) or an hsdp-cluster/1 file:
                adds a "Cost on <cluster>" section (JSON: a "cost" object
                with before, after (each with fits and over_bytes),
                step_seconds_change, peak_bytes_change, phases, faster and
                lighter: "before" | "after" | "same", and fit: "both" |
                "before" | "after" | "neither" | "unknown")
  -h, --help    show this help

exit status: 0 the same plan (everything the hsdp-plan/1 JSON reports is
equal), 1 the plans differ, 2 a scenario or the cluster could not be read (the
message names the file) or bad usage. The cost comparison does not change it.
)";

int diffCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").option("--cluster");
    parser.parse(args);
    if (parser.positionals().size() != 2)
        throw UsageError("diff takes exactly two SCENARIO files (BEFORE AFTER)");
    const std::string& beforePath = parser.positionals()[0];
    const std::string& afterPath = parser.positionals()[1];

    std::optional<Scenario> before = loadScenario(beforePath);
    if (!before) return 2;
    std::optional<Scenario> after = loadScenario(afterPath);
    if (!after) return 2;
    std::optional<Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    const Plan beforePlan = planWithStrategies(*before, cluster, parser.value("--cluster"));
    const Plan afterPlan = planWithStrategies(*after, cluster, parser.value("--cluster"));
    PlanDiff diff = diffPlans(*before, beforePlan, *after, afterPlan);
    std::optional<CostDiff> cost;
    if (cluster)
        cost = diffCosts(costPlan(*before, beforePlan, *cluster),
                         costPlan(*after, afterPlan, *cluster));
    if (parser.has("--json")) {
        auto json = planDiffToJson(diff, beforePath, afterPath);
        if (cost) json["cost"] = costDiffToJson(*cost);
        std::cout << json.dump(1) << "\n";
    } else {
        std::cout << planDiffToText(diff, beforePath, afterPath);
        if (cost) std::cout << "\n" << costDiffToText(*cost);
    }
    return diff.same() ? 0 : 1;
}

}  // namespace hsdp::cli
