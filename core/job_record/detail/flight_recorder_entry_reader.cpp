// SPDX-License-Identifier: Apache-2.0
#include "job_record/detail/flight_recorder_entry_reader.h"

#include <cmath>

#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

// Every key an entry has had in versions 2.3 to 2.10; the last five are not
// always there (docs/job-records.md).
constexpr std::string_view kEntryKeys[] = {"record_id",
                                           "pg_id",
                                           "process_group",
                                           "collective_seq_id",
                                           "p2p_seq_id",
                                           "op_id",
                                           "profiling_name",
                                           "time_created_ns",
                                           "input_sizes",
                                           "input_dtypes",
                                           "output_sizes",
                                           "output_dtypes",
                                           "state",
                                           "time_discovered_started_ns",
                                           "time_discovered_completed_ns",
                                           "retired",
                                           "timeout_ms",
                                           "is_p2p",
                                           "duration_ms",
                                           "frames",
                                           "thread_name",
                                           "thread_id"};

constexpr int64_t kMaxDimension = int64_t(1) << 48;

int64_t readCount(const Json& entry, const std::string& path, std::string_view key) {
    return readInt(requireMember(entry, path, key), childPath(path, key), 0);
}

std::pair<std::string, std::string> readGroupName(const Json& value, const std::string& path) {
    if (!value.is_array() || value.size() != 2)
        failExpected(path, "[name, description] of the process group", value);
    return {readString(value[0], childPath(path, 0)),
            readString(value[1], childPath(path, 1), /*allowEmpty=*/true)};
}

std::vector<std::vector<int64_t>> readShapes(const Json& value, const std::string& path) {
    readArray(value, path, "tensor shapes");
    std::vector<std::vector<int64_t>> shapes;
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string shapePath = childPath(path, i);
        readArray(value[i], shapePath, "dimensions");
        std::vector<int64_t>& shape = shapes.emplace_back();
        for (size_t d = 0; d < value[i].size(); ++d)
            shape.push_back(readInt(value[i][d], childPath(shapePath, d), 0, kMaxDimension));
    }
    return shapes;
}

std::vector<std::string> readDtypes(const Json& value, const std::string& path, size_t count) {
    readArray(value, path, "dtype names");
    if (value.size() != count)
        throw ScenarioError(path, "expected " + std::to_string(count) +
                                      " dtypes, one per tensor shape, got " +
                                      std::to_string(value.size()));
    std::vector<std::string> dtypes;
    for (size_t i = 0; i < value.size(); ++i)
        dtypes.push_back(readString(value[i], childPath(path, i)));
    return dtypes;
}

CollectiveState readState(const Json& value, const std::string& path) {
    for (auto state :
         {CollectiveState::Scheduled, CollectiveState::Started, CollectiveState::Completed})
        if (value.is_string() && value.get<std::string>() == collectiveStateName(state))
            return state;
    failExpected(path, "\"scheduled\", \"started\" or \"completed\"", value);
}

// None (pickle) or 0 (JSON): the watchdog had not seen it yet.
std::optional<int64_t> readDiscoveredTime(const Json& value, const std::string& path) {
    if (value.is_null()) return std::nullopt;
    const int64_t ns = readInt(value, path, 0);
    return ns == 0 ? std::nullopt : std::optional<int64_t>(ns);
}

// "nccl:all_reduce", "nccl:send 0->1": a backend, a colon, an operation.
std::string readProfilingName(const Json& value, const std::string& path) {
    std::string name = readString(value, path);
    const size_t colon = name.find(':');
    if (colon == 0 || colon == std::string::npos || colon + 1 == name.size() ||
        name[colon + 1] == ' ')
        failExpected(path, "\"backend:operation\" (\"nccl:all_reduce\")", value);
    return name;
}

std::vector<FlightRecorderFrame> readFrames(const Json& value, const std::string& path) {
    readArray(value, path, "stack frames");
    std::vector<FlightRecorderFrame> frames;
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string framePath = childPath(path, i);
        requireObject(value[i], framePath, "a stack frame", {"name", "filename", "line"});
        frames.push_back(
            {readString(requireMember(value[i], framePath, "name"), framePath + "/name", true),
             readString(requireMember(value[i], framePath, "filename"), framePath + "/filename",
                        true),
             readInt(requireMember(value[i], framePath, "line"), framePath + "/line", 0)});
    }
    return frames;
}

void readSizes(const Json& entry, const std::string& path, FlightRecorderEntry& out) {
    out.inputSizes = readShapes(requireMember(entry, path, "input_sizes"), path + "/input_sizes");
    out.inputDtypes = readDtypes(requireMember(entry, path, "input_dtypes"), path + "/input_dtypes",
                                 out.inputSizes.size());
    out.outputSizes =
        readShapes(requireMember(entry, path, "output_sizes"), path + "/output_sizes");
    out.outputDtypes = readDtypes(requireMember(entry, path, "output_dtypes"),
                                  path + "/output_dtypes", out.outputSizes.size());
}

void readTimes(const Json& entry, const std::string& path, FlightRecorderEntry& out) {
    out.timeCreatedNs = readCount(entry, path, "time_created_ns");
    out.timeDiscoveredStartedNs =
        readDiscoveredTime(requireMember(entry, path, "time_discovered_started_ns"),
                           path + "/time_discovered_started_ns");
    out.timeDiscoveredCompletedNs =
        readDiscoveredTime(requireMember(entry, path, "time_discovered_completed_ns"),
                           path + "/time_discovered_completed_ns");
    if (const Json* duration = findMember(entry, "duration_ms")) {
        if (!duration->is_number() || !std::isfinite(duration->get<double>()) ||
            duration->get<double>() < 0)
            failExpected(path + "/duration_ms", "a number of milliseconds >= 0", *duration);
        out.durationMs = duration->get<double>();
    }
    out.timeoutMs = readCount(entry, path, "timeout_ms");
}

}  // namespace

FlightRecorderEntry readFlightRecorderEntry(const Json& entry, const std::string& path) {
    requireObject(entry, path, "an entry", std::span<const std::string_view>(kEntryKeys));
    FlightRecorderEntry out;
    out.recordId = readCount(entry, path, "record_id");
    out.pgId = readCount(entry, path, "pg_id");
    std::tie(out.pgName, out.pgDesc) =
        readGroupName(requireMember(entry, path, "process_group"), path + "/process_group");
    out.collectiveSeqId = readCount(entry, path, "collective_seq_id");
    out.p2pSeqId = readCount(entry, path, "p2p_seq_id");
    out.opId = readCount(entry, path, "op_id");
    out.profilingName =
        readProfilingName(requireMember(entry, path, "profiling_name"), path + "/profiling_name");
    readSizes(entry, path, out);
    readTimes(entry, path, out);
    out.state = readState(requireMember(entry, path, "state"), path + "/state");
    out.retired = readBool(requireMember(entry, path, "retired"), path + "/retired");
    out.isP2P = readBool(requireMember(entry, path, "is_p2p"), path + "/is_p2p");
    if (const Json* name = findMember(entry, "thread_name"))
        out.threadName = readString(*name, path + "/thread_name", true);
    if (const Json* id = findMember(entry, "thread_id"))
        out.threadId = readString(*id, path + "/thread_id", true);
    if (const Json* frames = findMember(entry, "frames"))
        out.frames = readFrames(*frames, path + "/frames");
    return out;
}

}  // namespace hsdp
