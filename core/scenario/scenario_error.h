// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace hsdp {

// Everything wrong with a scenario file: a JSON syntax error, invalid UTF-8,
// or a value the format does not allow. `path` is a JSON pointer into the file
// as written ("/params/0/params/1/shape"; "" for the whole file), so an editor
// can jump to it; `problem` says what was expected and what was found.
class ScenarioError : public std::runtime_error {
public:
    ScenarioError(std::string path, std::string problem, std::string file = {});

    std::string path;
    std::string problem;
    std::string file;  // set by readScenarioFile, "" for text read from memory

    // The same error, attributed to `fileName`.
    ScenarioError inFile(const std::string& fileName) const;
};

// "<file>: <path>: <problem>", leaving out the parts that are empty: how
// every reader of this engine (scenarios, clusters) words an input error.
std::string inputErrorMessage(const std::string& file, const std::string& path,
                              const std::string& problem);

}  // namespace hsdp
