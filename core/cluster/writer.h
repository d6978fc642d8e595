// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "cluster/cluster.h"

namespace hsdp {

// `cluster` as an `hsdp-cluster/1` document (docs/cluster-format.md) that
// readCluster reads back to the same cluster: the presets' layout (one line
// per link level), every number with at most `digits` significant digits,
// bandwidths in GB/s, latencies in microseconds, rank_to_node only when it is
// not the default layout. writeCluster(readCluster(writeCluster(c))) ==
// writeCluster(c).
std::string writeCluster(const Cluster& cluster, int digits = 4);

}  // namespace hsdp
