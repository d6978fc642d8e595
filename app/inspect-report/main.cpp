// SPDX-License-Identifier: Apache-2.0
// hsdp-inspect-report: what `hsdp-inspect report` runs (see
// app/inspect/report_handoff.cpp); it speaks as hsdp-inspect.
#include <iostream>
#include <string>
#include <vector>

#include "cli_args.h"
#include "hsdp_version.h"
#include "report_command.h"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto& a : args) {
        if (a == "-h" || a == "--help") return std::cout << hsdp::cli::kReportHelp, 0;
        if (a == "--version")
            return std::cout << "hsdp-inspect-report " << hsdp::version() << "\n", 0;
    }
    return hsdp::cli::exitCodeOf([&] { return hsdp::cli::writeReportCommand(args); }, "report");
}
