// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect diff A.json B.json: what changed between the plans of two scenarios.
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "plan/planner.h"
#include "plan_diff/plan_diff.h"
#include "plan_diff/plan_diff_json.h"
#include "plan_diff/plan_diff_text.h"

namespace hsdp::cli {

const char* const kDiffHelp = R"(usage: hsdp-inspect diff BEFORE AFTER [--json]

Plans two hsdp-scenario/1 files and lists what moved from BEFORE to AFTER:
diagnostics that appeared or disappeared, owners that moved, owner-load
imbalance (max/mean) before/after, world size, meshes and options, parameters
added, removed or changed (matched by name: group, batch, owner, placements,
shape, dtype), owner loads per replicate coordinate, schedule, TP transition
decisions and per-rank ownership. Groups are matched by mesh and layout, not id.

options:
  --json        print the comparison as hsdp-plan-diff/1 JSON
  -h, --help    show this help

exit status: 0 the same plan (everything the hsdp-plan/1 JSON reports is
equal), 1 the plans differ, 2 a scenario could not be read (the message names
the file) or bad usage.
)";

int diffCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json");
    parser.parse(args);
    if (parser.positionals().size() != 2)
        throw UsageError("diff takes exactly two SCENARIO files (BEFORE AFTER)");
    const std::string& beforePath = parser.positionals()[0];
    const std::string& afterPath = parser.positionals()[1];

    std::optional<Scenario> before = loadScenario(beforePath);
    if (!before) return 2;
    std::optional<Scenario> after = loadScenario(afterPath);
    if (!after) return 2;
    PlanDiff diff = diffPlans(*before, makePlan(*before), *after, makePlan(*after));
    if (parser.has("--json"))
        std::cout << planDiffToJson(diff, beforePath, afterPath).dump(1) << "\n";
    else
        std::cout << planDiffToText(diff, beforePath, afterPath);
    return diff.same() ? 0 : 1;
}

}  // namespace hsdp::cli
