// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster.h"
#include "cluster/cluster_error.h"

namespace hsdp {

// Reads an `hsdp-cluster/1` document (docs/cluster-format.md), strictly:
// unknown keys, missing keys, values of the wrong type or out of range are a
// ClusterError naming the JSON path of the first problem.
Cluster readCluster(std::string_view jsonText);

// Same, from a file; errors (an unreadable file too) name the file.
Cluster readClusterFile(const std::string& filePath);

// The presets shipped in resources/clusters/ and compiled into the library
// (so every tool has them wherever it runs): their names, sorted
// ("a100-dgx", "h100-dgx", ...), and a preset's file text ("" when none has
// that name).
std::vector<std::string> clusterPresetNames();
std::string_view clusterPresetText(std::string_view name);
// Reads the preset `name`; errors name "preset NAME". An unknown name is a
// ClusterError listing the presets.
Cluster readClusterPreset(std::string_view name);

// A preset's name or a cluster file's path: a bare preset name ("h100-dgx")
// reads the preset, anything else the file (write ./h100-dgx for a file of
// that name). A bare word that is neither a preset nor a file is an error
// that lists the presets.
Cluster resolveCluster(const std::string& nameOrPath);

// Larger cluster files are refused; a cluster file is a few hundred bytes.
inline constexpr size_t kMaxClusterBytes = size_t(1) << 20;
// The most ranks (nodes * devices_per_node) a cluster may have.
inline constexpr int kMaxClusterRanks = 1 << 20;

}  // namespace hsdp
