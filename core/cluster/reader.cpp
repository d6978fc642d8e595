// SPDX-License-Identifier: Apache-2.0
#include "cluster/reader.h"

#include <cmath>

#include <algorithm>
#include <filesystem>

#include "cluster/detail/embedded_presets.h"
#include "cluster/detail/section_readers.h"
#include "scenario/input_file.h"
#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

constexpr std::string_view kFormat = "hsdp-cluster/1";

int readCount(const Json& top, std::string_view key) {
    return static_cast<int>(
        readInt(requireMember(top, "", key), childPath("", key), 1, kMaxClusterRanks));
}

Cluster readTop(const Json& top) {
    requireObject(top, "", "a cluster",
                  {"format", "name", "description", "nodes", "devices_per_node", "rank_to_node",
                   "links", "device", "collective_algorithms", "shared_cores",
                   "collective_member_load", "calibration", "validation"});
    const Json& format = requireMember(top, "", "format");
    if (format != kFormat) failExpected("/format", "\"" + std::string(kFormat) + "\"", format);
    Cluster out;
    out.name = readString(requireMember(top, "", "name"), "/name");
    if (const Json* description = findMember(top, "description"))
        out.description = readString(*description, "/description", /*allowEmpty=*/true);
    out.nodes = readCount(top, "nodes");
    out.devicesPerNode = readCount(top, "devices_per_node");
    if (int64_t{out.nodes} * out.devicesPerNode > kMaxClusterRanks)
        throw ScenarioError("/devices_per_node", "the cluster has more than " +
                                                     std::to_string(kMaxClusterRanks) +
                                                     " ranks (nodes x devices_per_node)");
    if (const Json* map = findMember(top, "rank_to_node"))
        out.rankToNode = readRankToNode(*map, "/rank_to_node", out.nodes, out.devicesPerNode);
    else
        out.rankToNode = defaultRankToNode(out.nodes, out.devicesPerNode);
    const Json& links = requireMember(top, "", "links");
    requireObject(links, "/links", "links", {"intra_node", "inter_node"});
    for (LinkLevel level : {LinkLevel::IntraNode, LinkLevel::InterNode}) {
        const std::string_view key = linkLevelName(level);
        const Json& value = requireMember(links, "/links", key);
        LinkSpec spec = readLinkSpec(value, childPath("/links", key));
        (level == LinkLevel::IntraNode ? out.intraNodeByOp : out.interNodeByOp) =
            readLinkOverrides(value, childPath("/links", key), spec);
        (level == LinkLevel::IntraNode ? out.intraNode : out.interNode) = spec;
    }
    out.device = readDeviceSpec(requireMember(top, "", "device"), "/device");
    if (const Json* algorithms = findMember(top, "collective_algorithms"))
        out.algorithms = readCollectiveAlgorithms(*algorithms, "/collective_algorithms");
    if (const Json* cores = findMember(top, "shared_cores"))
        out.sharedCores = readPositiveNumber(*cores, "/shared_cores");
    out.collectiveMemberLoad =
        readEfficiency(findMember(top, "collective_member_load"), "/collective_member_load");
    if (const Json* calibration = findMember(top, "calibration")) {
        if (!calibration->is_object()) failExpected("/calibration", "an object", *calibration);
        out.calibration = calibration->dump();
    }
    if (const Json* validation = findMember(top, "validation")) {
        requireObject(*validation, "/validation", "a validation",
                      {"error_percent", "basis", "scope"});
        const Json& error = requireMember(*validation, "/validation", "error_percent");
        if (!error.is_number() || error.get<double>() < 0 || !std::isfinite(error.get<double>()))
            failExpected("/validation/error_percent", "a number >= 0", error);
        out.validation.errorPercent = error.get<double>();
        out.validation.basis =
            readString(requireMember(*validation, "/validation", "basis"), "/validation/basis");
        if (const Json* scope = findMember(*validation, "scope")) {
            if (!scope->is_string() || (*scope != "step" && *scope != "pieces"))
                failExpected("/validation/scope", "\"step\" or \"pieces\"", *scope);
            out.validation.piecesOnly = *scope == "pieces";
        }
    }
    return out;
}

std::string presetList() {
    std::string out;
    for (const auto& name : clusterPresetNames()) out += (out.empty() ? "" : ", ") + name;
    return out;
}

bool isBareName(const std::string& text) {
    return !text.empty() && text.find('/') == std::string::npos &&
           text.find('\\') == std::string::npos &&
           std::filesystem::path(text).extension() != ".json";
}

}  // namespace

Cluster readCluster(std::string_view jsonText) {
    try {
        return readTop(parseStrictJson(jsonText));
    } catch (const ScenarioError& e) {
        throw ClusterError(e.path, e.problem);
    }
}

Cluster readClusterFile(const std::string& filePath) {
    std::string text;
    try {
        text = readInputFile(filePath, kMaxClusterBytes);
    } catch (const InputFileError& error) {
        throw ClusterError("", "cannot read the cluster file: " + error.reason, filePath);
    }
    try {
        return readCluster(text);
    } catch (const ClusterError& e) {
        throw e.inFile(filePath);
    }
}

std::vector<std::string> clusterPresetNames() {
    std::vector<std::string> names;
    for (const auto& preset : embeddedClusterPresets()) names.emplace_back(preset.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::string_view clusterPresetText(std::string_view name) {
    for (const auto& preset : embeddedClusterPresets())
        if (preset.name == name) return preset.text;
    return {};
}

Cluster readClusterPreset(std::string_view name) {
    const std::string_view text = clusterPresetText(name);
    if (text.empty())
        throw ClusterError("", "no cluster preset named \"" + std::string(name) +
                                   "\"; the presets are: " + presetList());
    try {
        return readCluster(text);
    } catch (const ClusterError& e) {
        throw e.inFile("preset " + std::string(name));
    }
}

Cluster resolveCluster(const std::string& nameOrPath) {
    if (isBareName(nameOrPath)) {
        if (!clusterPresetText(nameOrPath).empty()) return readClusterPreset(nameOrPath);
        std::error_code ec;
        if (!std::filesystem::exists(nameOrPath, ec))
            throw ClusterError("", "no cluster preset or file named \"" + nameOrPath +
                                       "\"; the presets are: " + presetList());
    }
    return readClusterFile(nameOrPath);
}

}  // namespace hsdp
