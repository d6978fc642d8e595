// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <map>
#include <string>

#include "cluster/cluster.h"
#include "scenario/json_text.h"

namespace hsdp {

// The parts of a cluster file below the top level. They throw ScenarioError
// (the shared JSON field readers' error); readCluster turns it into a
// ClusterError with the same path and problem.

// One entry of `links`: a bandwidth (in exactly one of its two units),
// latency_us and an optional efficiency.
LinkSpec readLinkSpec(const Json& value, const std::string& path);

// A link level's optional `by_op`: per op name (the trace's), the level's
// figures with any of its keys replaced.
std::map<std::string, LinkSpec, std::less<>> readLinkOverrides(const Json& level,
                                                               const std::string& path,
                                                               const LinkSpec& base);

// `device`: name, memory_bytes, peak_tflops per dtype, efficiency.
DeviceSpec readDeviceSpec(const Json& value, const std::string& path);

// `rank_to_node`: one node index per rank, each node holding exactly
// devicesPerNode ranks.
std::vector<int> readRankToNode(const Json& value, const std::string& path, int nodes,
                                int devicesPerNode);

// `collective_algorithms`: "nccl_ring" or "gloo".
CollectiveAlgorithms readCollectiveAlgorithms(const Json& value, const std::string& path);

// A number in (0, 1]; absent means 1.
double readEfficiency(const Json* value, const std::string& path);

}  // namespace hsdp
