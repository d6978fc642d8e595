// SPDX-License-Identifier: Apache-2.0
#include "job_record/flight_recorder_writer.h"

#include <nlohmann/json.hpp>

namespace hsdp {

namespace {

// nlohmann::json keeps keys sorted, as PyTorch's std::map-built dump does.
using SortedJson = nlohmann::json;

std::string rankText(const std::vector<int64_t>& ranks) {
    std::string out = "[";
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
    return out + "]";
}

SortedJson entryJson(const FlightRecorderEntry& e) {
    SortedJson j;
    j["record_id"] = e.recordId;
    j["pg_id"] = e.pgId;
    j["process_group"] = {e.pgName, e.pgDesc};
    if (!e.threadName.empty() || !e.threadId.empty()) {
        j["thread_name"] = e.threadName;
        j["thread_id"] = e.threadId;
    }
    j["collective_seq_id"] = e.collectiveSeqId;
    j["p2p_seq_id"] = e.p2pSeqId;
    j["op_id"] = e.opId;
    j["profiling_name"] = e.profilingName;
    j["time_created_ns"] = e.timeCreatedNs;
    if (e.durationMs) j["duration_ms"] = *e.durationMs;
    j["input_sizes"] = e.inputSizes;
    j["input_dtypes"] = e.inputDtypes;
    j["output_sizes"] = e.outputSizes;
    j["output_dtypes"] = e.outputDtypes;
    j["state"] = std::string(collectiveStateName(e.state));
    j["time_discovered_started_ns"] = e.timeDiscoveredStartedNs.value_or(0);
    j["time_discovered_completed_ns"] = e.timeDiscoveredCompletedNs.value_or(0);
    j["retired"] = e.retired;
    j["timeout_ms"] = e.timeoutMs;
    j["is_p2p"] = e.isP2P;
    return j;
}

SortedJson statusJson(const std::vector<FlightRecorderGroupStatus>& status) {
    SortedJson out = SortedJson::object();
    for (const auto& row : status)
        out[std::to_string(row.pgId)] = {
            {"last_enqueued_collective", std::to_string(row.lastEnqueued)},
            {"last_started_collective", std::to_string(row.lastStarted)},
            {"last_completed_collective", std::to_string(row.lastCompleted)}};
    return out;
}

}  // namespace

std::string writeFlightRecorderJson(const FlightRecorderDump& dump) {
    SortedJson out;
    out["version"] = dump.version;
    out["comm_lib_version"] = dump.commLibVersion;
    SortedJson config = SortedJson::object();
    for (const auto& group : dump.groups)
        config[group.name] = {
            {"name", group.name}, {"desc", group.desc}, {"ranks", rankText(group.ranks)}};
    out["pg_config"] = config;
    out["pg_status"] = statusJson(dump.status);
    if (!dump.entries.empty()) {
        SortedJson entries = SortedJson::array();
        for (const auto& entry : dump.entries) entries.push_back(entryJson(entry));
        out["entries"] = entries;
    }
    return out.dump();
}

}  // namespace hsdp
