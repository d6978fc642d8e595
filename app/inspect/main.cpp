// hsdp-inspect: the command-line face of the HSDP Studio engine.
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_args.h"
#include "commands.h"

namespace {

const char* const kToolHelp = R"(usage: hsdp-inspect COMMAND [options]

Inspect and verify HSDP sharding plans (DTensor placements on N-D device
meshes, Muon-style owner assignment, fused all-gathers, TP lowering).

commands:
  plan SCENARIO   print the plan (text, or hsdp-plan/1 JSON with --json)
  run SCENARIO    execute the plan over real Gloo collectives, one thread per
                  rank, and verify every byte (hsdp-run/1 JSON with --json)
  diff A B        what changed between the plans of two scenarios (exit 1 if
                  they differ; hsdp-plan-diff/1 JSON with --json)
  scenario --from-config CONFIG.json --mesh dp_replicate=2,dp_shard=8,tp=4 -o FILE
                  write the scenario of a Hugging Face model config under a
                  parallelism layout (FSDP2 + torchtitan's TP plan)
  report SCENARIO -o FILE.html|FILE.pdf
                  one self-contained document: plan, pictures, and with --run
                  the verification and traffic (docs/reports.md)
  worker SCENARIO --store DIR --procs N --proc I
                  run one share of a run split over processes or hosts
  collect DIR     merge and print the result the workers left in DIR

options:
  -h, --help      show this help; `hsdp-inspect COMMAND --help` for a command
  --version       print the version

Scenario format: hsdp-scenario/1 (docs/scenario-format.md); SCENARIO "-" reads
standard input. Exit status, plan, run and report: 0 fine, 1 findings (error
diagnostics in the plan, failed verification), 2 unreadable input or bad usage.

Documentation, in the source tree: docs/README.md (index),
docs/scenario-format.md (the hsdp-scenario/1 input: every key, with complete
examples in docs/examples/), docs/plan.md, docs/run.md, docs/trace-format.md,
docs/glossary.md, docs/model-config.md (scenario --from-config), docs/reports.md.
)";

bool wantsHelp(const std::vector<std::string>& args) {
    for (const auto& a : args)
        if (a == "-h" || a == "--help") return true;
    return false;
}

int dispatch(const std::string& command, const std::vector<std::string>& args) {
    using namespace hsdp::cli;
    if (command == "plan") {
        if (wantsHelp(args)) return std::cout << kPlanHelp, 0;
        return planCommand(args);
    }
    if (command == "run") {
        if (wantsHelp(args)) return std::cout << kRunHelp, 0;
        return runCommand(args);
    }
    if (command == "diff") {
        if (wantsHelp(args)) return std::cout << kDiffHelp, 0;
        return diffCommand(args);
    }
    if (command == "scenario") {
        if (wantsHelp(args)) return std::cout << kScenarioHelp, 0;
        return scenarioCommand(args);
    }
    if (command == "report") return reportCommand(args);  // --help included
    if (command == "worker") {  // started by `run --procs`: one share of a split run
        if (wantsHelp(args)) return std::cout << kWorkerHelp, 0;
        return workerCommand(args);
    }
    if (command == "collect") {
        if (wantsHelp(args)) return std::cout << kCollectHelp, 0;
        return collectCommand(args);
    }
    throw UsageError("unknown command '" + command +
                     "' (expected plan, run, diff, scenario, report, worker or collect)");
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        std::cout << kToolHelp;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "hsdp-inspect " << HSDP_VERSION << "\n";
        return 0;
    }
    try {
        return dispatch(args[0], {args.begin() + 1, args.end()});
    } catch (const hsdp::cli::UsageError& error) {
        // Point at the help of the command that was given, where its options are.
        const bool known = args[0] == "plan" || args[0] == "run" || args[0] == "diff" ||
                           args[0] == "scenario" || args[0] == "report" || args[0] == "worker" ||
                           args[0] == "collect";
        std::cerr << "hsdp-inspect: " << error.what() << "\nTry 'hsdp-inspect "
                  << (known ? args[0] + " " : "") << "--help'.\n";
        return 2;
    } catch (const std::bad_alloc&) {
        // A valid but enormous plan (e.g. owner loads for millions of coordinates
        // in thousands of batches): say so instead of aborting.
        std::cerr << "hsdp-inspect: out of memory; the scenario's plan is too large\n";
        return 2;
    } catch (const std::exception& error) {
        std::cerr << "hsdp-inspect: internal error: " << error.what() << "\n";
        return 2;
    }
}
