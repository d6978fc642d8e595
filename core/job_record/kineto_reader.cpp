// SPDX-License-Identifier: Apache-2.0
#include "job_record/kineto_reader.h"

#include <cmath>

#include "job_record/detail/rank_list.h"
#include "job_record/flight_recorder_reader.h"
#include "scenario/input_file.h"
#include "scenario/json_fields.h"
#include "scenario/scenario_error.h"

namespace hsdp {

namespace {

constexpr std::string_view kParamComms = "record_param_comms";
constexpr int64_t kMaxRank = int64_t(1) << 24;

double readTime(const Json& event, const std::string& path, std::string_view key) {
    const Json& value = requireMember(event, path, key);
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
        failExpected(childPath(path, key), "a time in microseconds >= 0", value);
    return value.get<double>();
}

void readGroupArgs(const Json& args, const std::string& path, KinetoCollective& out) {
    if (const Json* name = findMember(args, "Process Group Name"))
        out.pgName = readString(*name, childPath(path, "Process Group Name"), true);
    if (const Json* desc = findMember(args, "Process Group Description"))
        out.pgDesc = readString(*desc, childPath(path, "Process Group Description"), true);
    if (const Json* ranks = findMember(args, "Process Group Ranks"))
        out.pgRanks = readRankList(*ranks, childPath(path, "Process Group Ranks"));
    if (const Json* seq = findMember(args, "Seq"))
        out.seq = readInt(*seq, childPath(path, "Seq"), 0);
}

KinetoCollective readCollective(const Json& event, const std::string& path, size_t index) {
    const Json& ph = requireMember(event, path, "ph");
    if (ph != "X") failExpected(path + "/ph", "\"X\" (a complete event)", ph);
    KinetoCollective out;
    out.eventIndex = index;
    out.tsUs = readTime(event, path, "ts");
    out.durUs = readTime(event, path, "dur");
    const std::string argsPath = path + "/args";
    const Json& args = requireMember(event, path, "args");
    if (!args.is_object()) failExpected(argsPath, "an object", args);
    const auto count = [&](std::string_view key, int64_t min) {
        return readInt(requireMember(args, argsPath, key), childPath(argsPath, key), min);
    };
    out.collectiveName = readString(requireMember(args, argsPath, "Collective name"),
                                    childPath(argsPath, "Collective name"));
    out.inNelems = count("In msg nelems", 0);
    out.outNelems = count("Out msg nelems", 0);
    out.groupSize = count("Group size", 1);
    out.dtype = readString(requireMember(args, argsPath, "dtype"), childPath(argsPath, "dtype"));
    readGroupArgs(args, argsPath, out);
    if (!out.pgRanks.empty() && int64_t(out.pgRanks.size()) != out.groupSize)
        throw ScenarioError(childPath(argsPath, "Process Group Ranks"),
                            "lists " + std::to_string(out.pgRanks.size()) +
                                " ranks, but \"Group size\" is " + std::to_string(out.groupSize));
    return out;
}

void readDistributedInfo(const Json& info, KinetoTrace& out) {
    if (!info.is_object()) failExpected("/distributedInfo", "an object", info);
    if (const Json* rank = findMember(info, "rank"))
        out.rank = readInt(*rank, "/distributedInfo/rank", 0, kMaxRank);
    if (const Json* size = findMember(info, "world_size"))
        out.worldSize = readInt(*size, "/distributedInfo/world_size", 1, kMaxRank + 1);
    if (out.rank && out.worldSize && *out.rank >= *out.worldSize)
        throw ScenarioError("/distributedInfo/rank", "rank " + std::to_string(*out.rank) +
                                                         " is not below world_size " +
                                                         std::to_string(*out.worldSize));
    if (const Json* backend = findMember(info, "backend"))
        out.backend = readString(*backend, "/distributedInfo/backend", true);
}

KinetoTrace readTop(const Json& top) {
    if (!top.is_object()) failExpected("", "a Kineto trace (an object with \"traceEvents\")", top);
    KinetoTrace out;
    if (const Json* info = findMember(top, "distributedInfo")) readDistributedInfo(*info, out);
    const Json& events =
        readArray(requireMember(top, "", "traceEvents"), "/traceEvents", "trace events");
    for (size_t i = 0; i < events.size(); ++i) {
        const std::string path = childPath("/traceEvents", i);
        if (!events[i].is_object()) failExpected(path, "an event (an object)", events[i]);
        const Json* name = findMember(events[i], "name");
        if (name && *name == kParamComms)
            out.collectives.push_back(readCollective(events[i], path, i));
    }
    return out;
}

}  // namespace

KinetoTrace readKinetoTrace(std::string_view text) {
    try {
        return readTop(parseStrictJson(text));
    } catch (const ScenarioError& e) {
        throw JobRecordError(e.path, e.problem);
    }
}

KinetoTrace readKinetoTraceFile(const std::string& filePath) {
    std::string text;
    try {
        text = readInputFile(filePath, kMaxJobRecordFileBytes);
    } catch (const InputFileError& error) {
        throw JobRecordError("", "cannot read the Kineto trace: " + error.reason, filePath);
    }
    try {
        return readKinetoTrace(text);
    } catch (const JobRecordError& e) {
        throw e.inFile(filePath);
    }
}

bool looksLikeKinetoTrace(std::string_view text) {
    return text.substr(0, size_t(1) << 20).find("\"traceEvents\"") != std::string_view::npos;
}

}  // namespace hsdp
