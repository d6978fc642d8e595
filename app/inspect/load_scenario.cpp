#include <iostream>

#include "commands.h"
#include "scenario/reader.h"

namespace hsdp::cli {

std::optional<Scenario> loadScenario(const std::string& path) {
    try {
        if (path == "-") return readScenarioStream(std::cin, "<stdin>");
        return readScenarioFile(path);
    } catch (const ScenarioError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return std::nullopt;
    }
}

}  // namespace hsdp::cli
