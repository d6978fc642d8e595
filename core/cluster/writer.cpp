// SPDX-License-Identifier: Apache-2.0
#include "cluster/writer.h"

#include <cstdio>
#include <string_view>

#include "scenario/json_text.h"

namespace hsdp {

namespace {

std::string number(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    // JSON has no "1e+09" problem, but "inf" and "nan" are not JSON: the
    // reader refuses them anyway, so a cluster never holds one.
    return text;
}

std::string jsonString(std::string_view text) {
    return Json(std::string(text)).dump();
}

// `full`: every key, zeros too (a by_op entry: a key left out would be the level's).
std::string figures(const LinkSpec& spec, int digits, bool full = false) {
    std::string out =
        "\"bandwidth_gigabytes_per_s\": " + number(spec.bandwidthBytesPerSecond / 1e9, digits) +
        ", \"latency_us\": " + number(spec.latencySeconds * 1e6, digits);
    if (full || spec.latencyPerRankSeconds > 0)
        out += ", \"latency_us_per_rank\": " + number(spec.latencyPerRankSeconds * 1e6, digits);
    if (full || spec.idleWakeSeconds > 0)
        out += ", \"idle_wake_up_us\": " + number(spec.idleWakeSeconds * 1e6, digits);
    return out + ", \"efficiency\": " + number(spec.efficiency, digits);
}

std::string link(const LinkSpec& spec, const std::map<std::string, LinkSpec, std::less<>>& byOp,
                 int digits) {
    std::string out = "{" + figures(spec, digits);
    if (!byOp.empty()) {
        out += ",\n      \"by_op\": {";
        const char* lead = "";
        for (const auto& [op, opSpec] : byOp) {
            out += lead + std::string("\"") + op + "\": {" + figures(opSpec, digits, true) + "}";
            lead = ", ";
        }
        out += "}";
    }
    return out + "}";
}

}  // namespace

std::string writeCluster(const Cluster& c, int digits) {
    std::string out = "{\n";
    out += "  \"format\": \"hsdp-cluster/1\",\n";
    out += "  \"name\": " + jsonString(c.name) + ",\n";
    if (!c.description.empty()) out += "  \"description\": " + jsonString(c.description) + ",\n";
    out += "  \"nodes\": " + std::to_string(c.nodes) + ",\n";
    out += "  \"devices_per_node\": " + std::to_string(c.devicesPerNode) + ",\n";
    if (c.rankToNode != defaultRankToNode(c.nodes, c.devicesPerNode)) {
        out += "  \"rank_to_node\": [";
        for (size_t r = 0; r < c.rankToNode.size(); ++r)
            out += (r ? ", " : "") + std::to_string(c.rankToNode[r]);
        out += "],\n";
    }
    if (c.algorithms != CollectiveAlgorithms::NcclRing)
        out +=
            "  \"collective_algorithms\": " + jsonString(collectiveAlgorithmsName(c.algorithms)) +
            ",\n";
    if (c.sharedCores > 0) out += "  \"shared_cores\": " + number(c.sharedCores, digits) + ",\n";
    if (c.collectiveMemberLoad != 1)
        out += "  \"collective_member_load\": " + number(c.collectiveMemberLoad, digits) + ",\n";
    out += "  \"links\": {\n";
    out += "    \"intra_node\": " + link(c.intraNode, c.intraNodeByOp, digits) + ",\n";
    out += "    \"inter_node\": " + link(c.interNode, c.interNodeByOp, digits) + "\n";
    out += "  },\n";
    out += "  \"device\": {\n";
    if (!c.device.name.empty()) out += "    \"name\": " + jsonString(c.device.name) + ",\n";
    if (c.device.memoryBandwidthBytesPerSecond > 0)
        out += "    \"memory_bandwidth_gigabytes_per_s\": " +
               number(c.device.memoryBandwidthBytesPerSecond / 1e9, digits) + ",\n";
    out += "    \"memory_bytes\": " + std::to_string(c.device.memoryBytes) + ",\n";
    out +=
        "    \"peak_tflops\": {\"float32\": " + number(c.device.peakFlops.float32 / 1e12, digits) +
        ", \"bfloat16\": " + number(c.device.peakFlops.bfloat16 / 1e12, digits) +
        ", \"float16\": " + number(c.device.peakFlops.float16 / 1e12, digits) + "},\n";
    out += "    \"efficiency\": " + number(c.device.efficiency, digits);
    if (c.device.matmulEfficiency > 0)
        out += ",\n    \"matmul_efficiency\": " + number(c.device.matmulEfficiency, digits);
    if (c.device.matmulSaturationElements > 0)
        out += ",\n    \"matmul_saturation_elements\": " +
               number(c.device.matmulSaturationElements, digits);
    if (c.device.kernelOverheadSeconds > 0)
        out += ",\n    \"kernel_overhead_us\": " +
               number(c.device.kernelOverheadSeconds * 1e6, digits);
    out += "\n  }";
    if (c.validation.errorPercent >= 0)
        out += ",\n  \"validation\": {\"error_percent\": " +
               number(c.validation.errorPercent, digits) +
               ", \"basis\": " + jsonString(c.validation.basis) +
               (c.validation.piecesOnly ? ", \"scope\": \"pieces\"" : "") + "}";
    if (!c.calibration.empty()) {
        // One member a line: the measurements stay readable and diffable.
        const Json calibration = Json::parse(c.calibration);
        out += ",\n  \"calibration\": {";
        const char* lead = "\n";
        for (const auto& [key, value] : calibration.items()) {
            out += lead + std::string("    ") + jsonString(key) + ": " + value.dump();
            lead = ",\n";
        }
        out += "\n  }";
    }
    out += "\n}\n";
    return out;
}

}  // namespace hsdp
