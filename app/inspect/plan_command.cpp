// SPDX-License-Identifier: Apache-2.0
#include <iostream>

#include "cli_args.h"
#include "commands.h"
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
  --                end of options (for a SCENARIO starting with '-')
  -h, --help        show this help

exit status: 0 plan without errors (warnings allowed), 1 plan with error
diagnostics (still printed), 2 the scenario could not be read (message on
stderr) or bad usage.

docs/plan.md (planning rules, hsdp-plan/1 keys), docs/glossary.md (owner,
batch, shard compute, hazard codes) in the source tree.
)";

int planCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").option("--format");
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
    Plan plan = makePlan(scenario);
    if (format == "json")
        std::cout << planToJson(plan, scenario).dump(1) << "\n";
    else
        std::cout << planToText(plan, scenario);
    return plan.hasErrors() ? 1 : 0;
}

}  // namespace hsdp::cli
