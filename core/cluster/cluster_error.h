// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace hsdp {

// Everything wrong with a cluster file, as ScenarioError says it for a
// scenario: `path` is a JSON pointer into the file as written
// ("/links/inter_node/bandwidth_gigabytes_per_s"; "" for the whole file),
// `problem` what was expected and what was found, `file` the file (or preset)
// it came from, "" for text read from memory.
class ClusterError : public std::runtime_error {
public:
    ClusterError(std::string path, std::string problem, std::string file = {});

    std::string path;
    std::string problem;
    std::string file;

    ClusterError inFile(const std::string& fileName) const;
};

}  // namespace hsdp
