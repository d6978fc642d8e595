// SPDX-License-Identifier: Apache-2.0
#include "job_record/flight_recorder_reader.h"

#include <algorithm>
#include <charconv>

#include "job_record/detail/flight_recorder_entry_reader.h"
#include "job_record/detail/rank_list.h"
#include "job_record/pickle_reader.h"
#include "scenario/input_file.h"
#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

constexpr std::string_view kTopKeys[] = {"version",        "pg_config",        "pg_status",
                                         "entries",        "comm_lib_version", "nccl_version",
                                         "nccl_comm_state"};

std::string acceptedVersions() {
    std::string out;
    for (auto version : kFlightRecorderVersions)
        out += (out.empty() ? "\"" : ", \"") + std::string(version) + "\"";
    return out;
}

std::string readVersion(const Json& top) {
    const Json& version = requireMember(top, "", "version");
    for (auto known : kFlightRecorderVersions)
        if (version.is_string() && version.get<std::string>() == known) return std::string(known);
    failExpected("/version",
                 "a Flight Recorder version this reader knows (" + acceptedVersions() + ")",
                 version);
}

std::vector<FlightRecorderGroup> readGroups(const Json& config) {
    if (!config.is_object()) failExpected("/pg_config", "an object of process groups", config);
    std::vector<FlightRecorderGroup> groups;
    for (const auto& [key, group] : config.items()) {
        const std::string path = childPath("/pg_config", key);
        requireObject(group, path, "a process group", {"name", "desc", "ranks"});
        FlightRecorderGroup out;
        out.name = readString(requireMember(group, path, "name"), path + "/name");
        if (out.name != key)
            throw ScenarioError(path + "/name", "expected the group's key " + Json(key).dump() +
                                                    ", got " + Json(out.name).dump());
        out.desc =
            readString(requireMember(group, path, "desc"), path + "/desc", /*allowEmpty=*/true);
        out.ranks = readRankList(requireMember(group, path, "ranks"), path + "/ranks");
        groups.push_back(std::move(out));
    }
    return groups;
}

// A sequence id: an integer (pickle) or its decimal text (JSON), -1 for none.
int64_t readSeq(const Json& value, const std::string& path) {
    if (value.is_string()) {
        const std::string& text = value.get_ref<const std::string&>();
        int64_t seq = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seq);
        if (error == std::errc() && end == text.data() + text.size() && seq >= -1) return seq;
        failExpected(path, "a sequence id >= -1", value);
    }
    return readInt(value, path, -1);
}

std::vector<FlightRecorderGroupStatus> readStatus(const Json& status) {
    if (!status.is_object())
        failExpected("/pg_status", "an object of group states by pg_id", status);
    std::vector<FlightRecorderGroupStatus> out;
    for (const auto& [key, value] : status.items()) {
        const std::string path = childPath("/pg_status", key);
        FlightRecorderGroupStatus row;
        const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), row.pgId);
        if (error != std::errc() || end != key.data() + key.size() || row.pgId < 0)
            throw ScenarioError(
                path, "expected a pg_id (an integer >= 0) as the key, got " + Json(key).dump());
        requireObject(
            value, path, "a group's state",
            {"last_enqueued_collective", "last_started_collective", "last_completed_collective"});
        row.lastEnqueued = readSeq(requireMember(value, path, "last_enqueued_collective"),
                                   path + "/last_enqueued_collective");
        row.lastStarted = readSeq(requireMember(value, path, "last_started_collective"),
                                  path + "/last_started_collective");
        row.lastCompleted = readSeq(requireMember(value, path, "last_completed_collective"),
                                    path + "/last_completed_collective");
        out.push_back(row);
    }
    return out;
}

// nccl_comm_state: per communicator, NCCL's own key-value strings. Checked, not kept.
void checkCommState(const Json& state) {
    if (!state.is_object()) failExpected("/nccl_comm_state", "an object of communicators", state);
    for (const auto& [comm, values] : state.items()) {
        const std::string path = childPath("/nccl_comm_state", comm);
        if (!values.is_object()) failExpected(path, "an object of strings", values);
        for (const auto& [key, value] : values.items())
            readString(value, childPath(path, key), true);
    }
}

std::vector<FlightRecorderEntry> readEntries(const Json& entries, const FlightRecorderDump& dump) {
    readArray(entries, "/entries", "entries");
    std::vector<FlightRecorderEntry> out;
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string path = childPath("/entries", i);
        out.push_back(readFlightRecorderEntry(entries[i], path));
        // fr_trace finds each entry's members in pg_config: without them it cannot match it.
        if (!dump.findGroup(out.back().pgName))
            throw ScenarioError(
                path + "/process_group/0",
                "the process group " + Json(out.back().pgName).dump() + " is not in /pg_config");
    }
    return out;
}

FlightRecorderDump readTop(const Json& top, DumpEncoding encoding) {
    requireObject(top, "", "a Flight Recorder dump", std::span<const std::string_view>(kTopKeys));
    FlightRecorderDump dump;
    dump.encoding = encoding;
    dump.version = readVersion(top);
    for (const char* key : {"comm_lib_version", "nccl_version"})
        if (const Json* lib = findMember(top, key))
            dump.commLibVersion = readString(*lib, childPath("", key), /*allowEmpty=*/true);
    dump.groups = readGroups(requireMember(top, "", "pg_config"));
    if (const Json* status = findMember(top, "pg_status")) dump.status = readStatus(*status);
    if (const Json* state = findMember(top, "nccl_comm_state")) checkCommState(*state);
    // JSON dumps leave "entries" out when there are none.
    if (const Json* entries = findMember(top, "entries"))
        dump.entries = readEntries(*entries, dump);
    return dump;
}

}  // namespace

FlightRecorderDump readFlightRecorderDump(std::string_view bytes) {
    const bool pickled = looksLikePickle(bytes);
    const Json top = pickled ? readPickle(bytes) : Json();
    try {
        if (pickled) return readTop(top, DumpEncoding::Pickle);
        return readTop(parseStrictJson(bytes), DumpEncoding::Json);
    } catch (const ScenarioError& e) {
        throw JobRecordError(e.path, e.problem);
    }
}

FlightRecorderDump readFlightRecorderFile(const std::string& filePath) {
    std::string bytes;
    try {
        bytes = readInputFile(filePath, kMaxJobRecordFileBytes);
    } catch (const InputFileError& error) {
        throw JobRecordError("", "cannot read the Flight Recorder dump: " + error.reason, filePath);
    }
    try {
        return readFlightRecorderDump(bytes);
    } catch (const JobRecordError& e) {
        throw e.inFile(filePath);
    }
}

}  // namespace hsdp
