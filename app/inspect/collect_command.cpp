// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_args.h"
#include "commands.h"
#include "distributed/run_join.h"
#include "output_paths.h"
#include "plan/planner.h"
#include "run_settings.h"
#include "scenario/reader.h"
#include "split_run.h"

namespace hsdp::cli {

const char* const kCollectHelp =
    R"(usage: hsdp-inspect collect DIR [--json] [--trace FILE]

Merges the results the workers of a split run wrote to the store folder DIR
(`hsdp-inspect worker ... --store DIR`), prints the run's result as `run`
does, and empties DIR. A worker that brought no result is named in the error.

options:
  --json                 print the result as hsdp-run/1 JSON
  --trace FILE           write the collectives as Chrome trace-event JSON

exit status: 0 VERIFIED, 1 NOT VERIFIED, 2 DIR holds no run or bad usage.
)";

int collectCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").option("--trace");
    parser.parse(args);
    if (parser.positionals().size() != 1) throw UsageError("collect takes exactly one DIR");
    if (auto path = parser.value("--trace")) checkOutputFile("--trace", *path);
    const StoreFolder folder(parser.positionals()[0]);
    RunCard card;
    try {
        card = readRunCard(folder);
    } catch (const std::runtime_error& error) {
        std::cerr << "hsdp-inspect: " << folder.dir() << " holds no run: " << error.what() << "\n";
        return 2;
    }
    std::istringstream text(card.scenarioText);
    const Scenario scenario = readScenarioStream(text, folder.path("scenario.json"));
    ArgParser settings;
    declareRunSettings(settings);
    settings.parse(card.settings);
    const RunOptions options = parseRunSettings(settings);
    std::optional<Cluster> cluster;
    if (auto name = settings.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    return mergeFolder(parser, folder, scenario,
                       planWithStrategies(scenario, cluster, settings.value("--cluster")), options,
                       card.procs);
}

}  // namespace hsdp::cli
