// SPDX-License-Identifier: Apache-2.0
#include "cluster/cluster_error.h"

namespace hsdp {

namespace {

// "<file>: <path>: <problem>", leaving out the parts that are empty.
std::string composeMessage(const std::string& file, const std::string& path,
                           const std::string& problem) {
    std::string out;
    if (!file.empty()) out += file + ": ";
    if (!path.empty()) out += path + ": ";
    return out + problem;
}

}  // namespace

ClusterError::ClusterError(std::string path_, std::string problem_, std::string file_)
    : std::runtime_error(composeMessage(file_, path_, problem_)),
      path(std::move(path_)),
      problem(std::move(problem_)),
      file(std::move(file_)) {}

ClusterError ClusterError::inFile(const std::string& fileName) const {
    return ClusterError(path, problem, fileName);
}

}  // namespace hsdp
