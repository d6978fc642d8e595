// SPDX-License-Identifier: Apache-2.0
#include "scenario/scenario_error.h"

namespace hsdp {

std::string inputErrorMessage(const std::string& file, const std::string& path,
                              const std::string& problem) {
    std::string out;
    if (!file.empty()) out += file + ": ";
    if (!path.empty()) out += path + ": ";
    return out + problem;
}

ScenarioError::ScenarioError(std::string path_, std::string problem_, std::string file_)
    : std::runtime_error(inputErrorMessage(file_, path_, problem_)),
      path(std::move(path_)),
      problem(std::move(problem_)),
      file(std::move(file_)) {}

ScenarioError ScenarioError::inFile(const std::string& fileName) const {
    return ScenarioError(path, problem, fileName);
}

}  // namespace hsdp
