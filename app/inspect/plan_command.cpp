// SPDX-License-Identifier: Apache-2.0
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "cost/plan_cost.h"
#include "export/cost_json.h"
#include "export/cost_text.h"
#include "export/plan_json.h"
#include "export/plan_text.h"
#include "plan/planner.h"

namespace hsdp::cli {

const char* const kPlanHelp =
    R"(usage: hsdp-inspect plan [options] SCENARIO     (SCENARIO "-": standard input)

Reads an hsdp-scenario/1 file and prints the HSDP plan the reference optimizer
would compute: parameter groups by communication domain and layout, batches,
owners and loads per replicate coordinate, shard-compute coordinates, TP
lowering decisions, and diagnostics (errors, hazards of the reference code,
warnings about probable mistakes). The text output ends with a glossary of
its terms.

options:
  --json            print the plan as hsdp-plan/1 JSON (same as --format json)
  --format FORMAT   text (default, for people) or json
  --cluster NAME|FILE
                    also predict the optimizer step on a cluster: a preset
                    (h100-dgx, a100-dgx, h200-hgx; grown to as many
                    nodes as the world needs) or an hsdp-cluster/1 file. Adds
                    a "Cost on <cluster>" section (step time, phases, critical
                    path, groups that cross nodes, peak memory) and a "cost"
                    object to --json. A predicted peak over the device's
                    memory is the error out-of-memory: the rank, the bytes
                    over, and the batch cap or gather strategy that fits
                    options.gather_strategy "auto" is weighed on this cluster
                    (on the loopback preset without --cluster)
  --                end of options (for a SCENARIO starting with '-')
  -h, --help        show this help

exit status: 0 plan without errors (warnings allowed), 1 plan with error
diagnostics (still printed; with --cluster, out-of-memory when a rank's
predicted peak is over the device's memory), 2 the scenario or the cluster
could not be read (message on stderr) or bad usage.

docs/plan.md (planning rules, hsdp-plan/1 keys), docs/glossary.md (owner,
batch, shard compute, hazard codes), docs/cost-model.md (--cluster) and
docs/cluster-format.md in the source tree.
)";

int planCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").option("--format").option("--cluster");
    parser.parse(args);
    if (parser.positionals().size() != 1) throw UsageError("plan takes exactly one SCENARIO file");
    std::string format = parser.value("--format").value_or(parser.has("--json") ? "json" : "text");
    if (format != "text" && format != "json")
        throw UsageError("--format expects 'text' or 'json', got '" + format + "'");
    if (parser.has("--json") && format != "json")
        throw UsageError("--json contradicts --format " + format);

    std::optional<Scenario> loaded = loadScenario(parser.positionals()[0]);
    if (!loaded) return 2;
    const Scenario& scenario = *loaded;
    std::optional<Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    Plan plan = planWithStrategies(scenario, cluster, parser.value("--cluster"));
    // A plan with errors is costed as it runs: without its rejected params.
    std::optional<PlanCost> cost;
    if (cluster) {
        cost = costPlan(scenario, plan, *cluster);
        // Where the plan meets the cluster: a step over the device's memory is
        // an error, listed first and counted in the exit status; one within
        // the headroom a warning.
        if (auto memory = memoryDiagnostic(cost->memoryFit, plan))
            plan.diagnostics.insert(plan.diagnostics.begin(), std::move(*memory));
    }
    std::vector<StrategyComparison> strategies;
    if (cluster) strategies = compareEveryGroup(scenario, plan, *cluster, kComparedGroups);
    if (format == "json") {
        auto json = planToJson(plan, scenario);
        json["gather_traffic"] = gatherTrafficToJson(gatherTraffic(scenario, plan));
        if (cost) {
            json["cost"] = costToJson(*cost);
            json["cost"]["gather_strategies"] = strategyComparisonsToJson(strategies);
        }
        std::cout << json.dump(1) << "\n";
    } else {
        std::cout << planToText(plan, scenario);
        if (cost)
            std::cout << "\n"
                      << costToText(*cost, "real size")
                      << strategyComparisonsText(strategies, gatheredGroupCount(plan));
    }
    return plan.hasErrors() ? 1 : 0;
}

}  // namespace hsdp::cli
