#pragma once

#include <string>
#include <vector>

namespace hsdp::cli {

// Each subcommand returns the process exit code: 0 fine, 1 findings (error
// diagnostics, failed verification), 2 unreadable input or bad usage.
int planCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);

extern const char* const kPlanHelp;
extern const char* const kRunHelp;

}  // namespace hsdp::cli
