// SPDX-License-Identifier: Apache-2.0
#include "cluster/cluster_error.h"

#include "scenario/scenario_error.h"

namespace hsdp {

ClusterError::ClusterError(std::string path_, std::string problem_, std::string file_)
    : std::runtime_error(inputErrorMessage(file_, path_, problem_)),
      path(std::move(path_)),
      problem(std::move(problem_)),
      file(std::move(file_)) {}

ClusterError ClusterError::inFile(const std::string& fileName) const {
    return ClusterError(path, problem, fileName);
}

}  // namespace hsdp
