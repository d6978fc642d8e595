// SPDX-License-Identifier: Apache-2.0
#include "cluster/detail/section_readers.h"

#include <cmath>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"
#include "types/collective_op.h"

namespace hsdp {

namespace {

constexpr double kBytesPerGigabyte = 1e9;
constexpr double kSecondsPerMicrosecond = 1e-6;
constexpr double kFlopsPerTeraflop = 1e12;

bool isFiniteNumber(const Json& value) {
    return value.is_number() && std::isfinite(value.get<double>());
}

double readNonNegativeNumber(const Json& value, const std::string& path) {
    if (!isFiniteNumber(value) || value.get<double>() < 0)
        failExpected(path, "a number >= 0", value);
    return value.get<double>();
}

double readBandwidth(const Json& link, const std::string& path) {
    const Json* bytes = findMember(link, "bandwidth_bytes_per_s");
    const Json* gigabytes = findMember(link, "bandwidth_gigabytes_per_s");
    if (bytes && gigabytes)
        throw ScenarioError(childPath(path, "bandwidth_gigabytes_per_s"),
                            "both \"bandwidth_bytes_per_s\" and \"bandwidth_gigabytes_per_s\" "
                            "are given; expected one of them");
    if (bytes) return readPositiveNumber(*bytes, childPath(path, "bandwidth_bytes_per_s"));
    if (gigabytes)
        return readPositiveNumber(*gigabytes, childPath(path, "bandwidth_gigabytes_per_s")) *
               kBytesPerGigabyte;
    throw ScenarioError(path,
                        "missing required key \"bandwidth_gigabytes_per_s\" (or "
                        "\"bandwidth_bytes_per_s\")");
}

DeviceFlops readPeakFlops(const Json& value, const std::string& path) {
    requireObject(value, path, "peak TFLOP/s per dtype", {"float32", "bfloat16", "float16"});
    auto read = [&](std::string_view dtype) {
        return readPositiveNumber(requireMember(value, path, dtype), childPath(path, dtype)) *
               kFlopsPerTeraflop;
    };
    DeviceFlops out;
    out.float32 = read("float32");
    out.bfloat16 = read("bfloat16");
    out.float16 = read("float16");
    return out;
}

}  // namespace

double readEfficiency(const Json* value, const std::string& path) {
    if (!value) return 1.0;
    if (!isFiniteNumber(*value) || !(value->get<double>() > 0) || value->get<double>() > 1)
        failExpected(path, "a number in (0, 1]", *value);
    return value->get<double>();
}

CollectiveAlgorithms readCollectiveAlgorithms(const Json& value, const std::string& path) {
    for (auto algorithms : {CollectiveAlgorithms::NcclRing, CollectiveAlgorithms::Gloo})
        if (value.is_string() && value.get<std::string>() == collectiveAlgorithmsName(algorithms))
            return algorithms;
    failExpected(path, "\"nccl_ring\" or \"gloo\"", value);
}

LinkSpec readLinkSpec(const Json& value, const std::string& path) {
    requireObject(value, path, "a link level",
                  {"bandwidth_gigabytes_per_s", "bandwidth_bytes_per_s", "latency_us",
                   "latency_us_per_rank", "idle_wake_up_us", "efficiency", "by_op"});
    LinkSpec out;
    out.bandwidthBytesPerSecond = readBandwidth(value, path);
    out.latencySeconds = readNonNegativeNumber(requireMember(value, path, "latency_us"),
                                               childPath(path, "latency_us")) *
                         kSecondsPerMicrosecond;
    if (const Json* perRank = findMember(value, "latency_us_per_rank"))
        out.latencyPerRankSeconds =
            readNonNegativeNumber(*perRank, childPath(path, "latency_us_per_rank")) *
            kSecondsPerMicrosecond;
    if (const Json* wake = findMember(value, "idle_wake_up_us"))
        out.idleWakeSeconds = readNonNegativeNumber(*wake, childPath(path, "idle_wake_up_us")) *
                              kSecondsPerMicrosecond;
    out.efficiency = readEfficiency(findMember(value, "efficiency"), childPath(path, "efficiency"));
    return out;
}

std::map<std::string, LinkSpec, std::less<>> readLinkOverrides(const Json& level,
                                                               const std::string& path,
                                                               const LinkSpec& base) {
    std::map<std::string, LinkSpec, std::less<>> out;
    const Json* byOp = findMember(level, "by_op");
    if (!byOp) return out;
    const std::string at = childPath(path, "by_op");
    std::vector<std::string_view> opNames;
    for (const CollectiveOpInfo& info : collectiveOps()) opNames.push_back(info.name);
    requireObject(*byOp, at, "per-op link figures", opNames);
    for (const auto& [op, value] : byOp->items()) {
        const std::string opPath = childPath(at, op);
        requireObject(value, opPath, "a link level's figures for one op",
                      {"bandwidth_gigabytes_per_s", "bandwidth_bytes_per_s", "latency_us",
                       "latency_us_per_rank", "idle_wake_up_us", "efficiency"});
        LinkSpec spec = base;
        if (findMember(value, "bandwidth_gigabytes_per_s") ||
            findMember(value, "bandwidth_bytes_per_s"))
            spec.bandwidthBytesPerSecond = readBandwidth(value, opPath);
        if (const Json* latency = findMember(value, "latency_us"))
            spec.latencySeconds = readNonNegativeNumber(*latency, childPath(opPath, "latency_us")) *
                                  kSecondsPerMicrosecond;
        if (const Json* perRank = findMember(value, "latency_us_per_rank"))
            spec.latencyPerRankSeconds =
                readNonNegativeNumber(*perRank, childPath(opPath, "latency_us_per_rank")) *
                kSecondsPerMicrosecond;
        if (const Json* wake = findMember(value, "idle_wake_up_us"))
            spec.idleWakeSeconds =
                readNonNegativeNumber(*wake, childPath(opPath, "idle_wake_up_us")) *
                kSecondsPerMicrosecond;
        if (const Json* efficiency = findMember(value, "efficiency"))
            spec.efficiency = readEfficiency(efficiency, childPath(opPath, "efficiency"));
        out.emplace(op, spec);
    }
    return out;
}

DeviceSpec readDeviceSpec(const Json& value, const std::string& path) {
    requireObject(
        value, path, "a device",
        {"name", "memory_bytes", "memory_bandwidth_gigabytes_per_s", "peak_tflops", "efficiency",
         "matmul_efficiency", "matmul_saturation_elements", "kernel_overhead_us"});
    DeviceSpec out;
    if (const Json* name = findMember(value, "name"))
        out.name = readString(*name, childPath(path, "name"), /*allowEmpty=*/true);
    out.memoryBytes =
        readInt(requireMember(value, path, "memory_bytes"), childPath(path, "memory_bytes"), 1);
    out.peakFlops =
        readPeakFlops(requireMember(value, path, "peak_tflops"), childPath(path, "peak_tflops"));
    if (const Json* bandwidth = findMember(value, "memory_bandwidth_gigabytes_per_s"))
        out.memoryBandwidthBytesPerSecond =
            readPositiveNumber(*bandwidth, childPath(path, "memory_bandwidth_gigabytes_per_s")) *
            kBytesPerGigabyte;
    out.efficiency = readEfficiency(findMember(value, "efficiency"), childPath(path, "efficiency"));
    if (const Json* matmul = findMember(value, "matmul_efficiency"))
        out.matmulEfficiency = readEfficiency(matmul, childPath(path, "matmul_efficiency"));
    if (const Json* saturation = findMember(value, "matmul_saturation_elements"))
        out.matmulSaturationElements =
            readNonNegativeNumber(*saturation, childPath(path, "matmul_saturation_elements"));
    if (const Json* overhead = findMember(value, "kernel_overhead_us"))
        out.kernelOverheadSeconds =
            readNonNegativeNumber(*overhead, childPath(path, "kernel_overhead_us")) *
            kSecondsPerMicrosecond;
    return out;
}

std::vector<int> readRankToNode(const Json& value, const std::string& path, int nodes,
                                int devicesPerNode) {
    readArray(value, path, "node indices, one per rank");
    const auto ranks = static_cast<size_t>(nodes) * static_cast<size_t>(devicesPerNode);
    if (value.size() != ranks)
        throw ScenarioError(
            path, "expected " + std::to_string(ranks) + " node indices (one per rank: nodes " +
                      std::to_string(nodes) + " x devices_per_node " +
                      std::to_string(devicesPerNode) + "), got " + std::to_string(value.size()));
    std::vector<int> map;
    std::vector<int> held(static_cast<size_t>(nodes), 0);
    for (size_t rank = 0; rank < value.size(); ++rank) {
        const std::string at = childPath(path, rank);
        const auto node = static_cast<int>(readInt(value[rank], at, 0, nodes - 1));
        if (++held[static_cast<size_t>(node)] > devicesPerNode)
            throw ScenarioError(at, "rank " + std::to_string(rank) +
                                        " is a rank too many on node " + std::to_string(node) +
                                        ": a node holds devices_per_node " +
                                        std::to_string(devicesPerNode) + " ranks");
        map.push_back(node);
    }
    return map;
}

}  // namespace hsdp
