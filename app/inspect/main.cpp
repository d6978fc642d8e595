// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect: the command-line face of the HSDP Studio engine.
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli_args.h"
#include "commands.h"
#include "hsdp_version.h"

namespace {

const char* const kToolHelpHead = R"(usage: hsdp-inspect COMMAND [options]

Inspect and verify HSDP sharding plans (DTensor placements on N-D device
meshes, Muon-style owner assignment, fused all-gathers, TP lowering).

commands:
)";

const char* const kToolHelpTail = R"(
options:
  -h, --help      show this help; `hsdp-inspect COMMAND --help` for a command
  --version       print the version

Scenario format: hsdp-scenario/1 (docs/scenario-format.md); SCENARIO "-" reads
standard input. Exit status, plan, run and report: 0 fine, 1 findings (error
diagnostics in the plan, failed verification), 2 unreadable input or bad usage.

Documentation, in the source tree: docs/README.md (index),
docs/scenario-format.md (the hsdp-scenario/1 input: every key, with complete
examples in docs/examples/), docs/plan.md, docs/run.md, docs/trace-format.md,
docs/glossary.md, docs/model-config.md (scenario --from-config), docs/checkpoint.md
(scenario --from-checkpoint), docs/reports.md.
)";

// Every command, once: its name, what follows the name in the tool's help, its
// summary there (lines), what runs it and its --help text.
struct Command {
    const char* name;
    const char* synopsis;  // the arguments after the name
    const char* summary;   // '\n' between lines
    int (*run)(const std::vector<std::string>& args);
    const char* help;  // nullptr: the command prints its own (report: hsdp-inspect-report)
};

using namespace hsdp::cli;

const Command kCommands[] = {
    {"plan", "SCENARIO", "print the plan (text, or hsdp-plan/1 JSON with --json)", planCommand,
     kPlanHelp},
    {"run", "SCENARIO",
     "execute the plan over real Gloo collectives, one thread per\n"
     "rank, and verify every byte (hsdp-run/1 JSON with --json)",
     runCommand, kRunHelp},
    {"diff", "A B",
     "what changed between the plans of two scenarios (exit 1 if\n"
     "they differ; hsdp-plan-diff/1 JSON with --json)",
     diffCommand, kDiffHelp},
    {"scenario", "--from-config CONFIG.json | --from-checkpoint PATH --mesh LAYOUT -o FILE",
     "write the scenario of a Hugging Face model config or safetensors\n"
     "checkpoint under a parallelism layout (FSDP2 + torchtitan's TP plan)",
     scenarioCommand, kScenarioHelp},
    {"report", "SCENARIO -o FILE.html|FILE.pdf",
     "one self-contained document: plan, pictures, and with --run\n"
     "the verification and traffic (docs/reports.md)",
     reportCommand, nullptr},
    // Started by `run --procs`: one share of a split run.
    {"worker", "SCENARIO --store DIR --procs N --proc I",
     "run one share of a run split over processes or hosts", workerCommand, kWorkerHelp},
    {"collect", "DIR", "merge and print the result the workers left in DIR", collectCommand,
     kCollectHelp},
    {"calibrate", "[-o FILE]",
     "measure this machine (Gloo over loopback, Newton-Schulz, memory)\n"
     "and write its hsdp-cluster/1 file for --cluster (docs/cost-model.md)",
     calibrateCommand, kCalibrateHelp},
    {"check-job", "SCENARIO DUMP...",
     "hold a job's Flight Recorder dumps against the plan's step: what\n"
     "diverged, in the job's order (exit 1; hsdp-job-check/1 with --json)",
     checkJobCommand, kCheckJobHelp},
};

const Command* findCommand(const std::string& name) {
    for (const Command& c : kCommands)
        if (name == c.name) return &c;
    return nullptr;
}

// The command list of the tool's help: a summary starts in column 18, on the
// next line when the name and synopsis reach it.
void printToolHelp() {
    constexpr size_t kColumn = 18;
    const std::string indent(kColumn, ' ');
    std::cout << kToolHelpHead;
    for (const Command& c : kCommands) {
        std::string head = std::string("  ") + c.name + " " + c.synopsis;
        head +=
            head.size() + 2 <= kColumn ? std::string(kColumn - head.size(), ' ') : "\n" + indent;
        std::string summary = c.summary;
        for (size_t at = summary.find('\n'); at != std::string::npos;
             at = summary.find('\n', at + 1))
            summary.insert(at + 1, indent);
        std::cout << head << summary << "\n";
    }
    std::cout << kToolHelpTail;
}

// "plan, run, ... or collect"
std::string commandNames() {
    std::string names;
    const size_t n = std::size(kCommands);
    for (size_t i = 0; i < n; ++i)
        names += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(kCommands[i].name);
    return names;
}

bool wantsHelp(const std::vector<std::string>& args) {
    for (const auto& a : args)
        if (a == "-h" || a == "--help") return true;
    return false;
}

int dispatch(const std::string& name, const std::vector<std::string>& args) {
    const Command* command = findCommand(name);
    if (!command)
        throw UsageError("unknown command '" + name + "' (expected " + commandNames() + ")");
    if (command->help && wantsHelp(args)) return std::cout << command->help, 0;
    return command->run(args);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        printToolHelp();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "hsdp-inspect " << hsdp::version() << "\n";
        return 0;
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    return hsdp::cli::exitCodeOf([&] { return dispatch(command, rest); },
                                 findCommand(command) ? command : "");
}
