// hsdp-inspect-report: what `hsdp-inspect report` runs (see
// app/inspect/report_handoff.cpp); it speaks as hsdp-inspect.
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli_args.h"
#include "report_command.h"

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto& a : args)
        if (a == "-h" || a == "--help") return std::cout << hsdp::cli::kReportHelp, 0;
    try {
        return hsdp::cli::writeReportCommand(args);
    } catch (const hsdp::cli::UsageError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\nTry 'hsdp-inspect report --help'.\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "hsdp-inspect: out of memory; the scenario's plan is too large\n";
        return 2;
    } catch (const std::exception& error) {
        std::cerr << "hsdp-inspect: internal error: " << error.what() << "\n";
        return 2;
    }
}
