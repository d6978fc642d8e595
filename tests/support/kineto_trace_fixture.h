// SPDX-License-Identifier: Apache-2.0
// Kineto traces as PyTorch's profiler writes them (Chrome JSON): metadata,
// distributedInfo, and traceEvents with a `record_param_comms` CPU op per
// collective (args as libkineto's output_json.cpp names them) among other
// ops and the GPU kernels that carry the same args.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "job_record/flight_recorder_dump.h"

namespace hsdp::testing {

using TraceJson = nlohmann::ordered_json;

inline TraceJson kinetoCollective(const std::string& name, int64_t inNelems, int64_t outNelems,
                                  const std::string& ranks, int64_t groupSize, double ts) {
    return {{"ph", "X"},
            {"cat", "cpu_op"},
            {"name", "record_param_comms"},
            {"pid", 1234},
            {"tid", 1234},
            {"ts", ts},
            {"dur", 12.5},
            {"args",
             {{"External id", 17},
              {"Record function id", 0},
              {"Ev Idx", 16},
              {"Collective name", name},
              {"In msg nelems", inNelems},
              {"Out msg nelems", outNelems},
              {"Group size", groupSize},
              {"dtype", "BFloat16"},
              {"In split size", "[]"},
              {"Out split size", "[]"},
              {"Global rank start", 0},
              {"Global rank stride", 1},
              {"Process Group Name", "1"},
              {"Process Group Description", "mesh_dp"},
              {"Process Group Ranks", ranks},
              {"Seq", 3}}}};
}

// Rank `rank`'s trace: an all-gather and an all-reduce over ranks 0 and 1,
// with an aten op before, a kernel between and distributedInfo (or none).
inline TraceJson kinetoTrace(int rank, bool withDistributedInfo = true) {
    TraceJson trace = {{"schemaVersion", 1}, {"deviceProperties", TraceJson::array()}};
    if (withDistributedInfo)
        trace["distributedInfo"] = {{"backend", "nccl"},
                                    {"rank", rank},
                                    {"world_size", 2},
                                    {"pg_count", 2},
                                    {"nccl_version", "2.21.5"}};
    trace["displayTimeUnit"] = "ms";
    trace["baseTimeNanoseconds"] = 1733500000000000000;
    TraceJson events = TraceJson::array();
    events.push_back({{"ph", "X"},
                      {"cat", "cpu_op"},
                      {"name", "aten::mm"},
                      {"pid", 1234},
                      {"tid", 1234},
                      {"ts", 100.0},
                      {"dur", 5.0},
                      {"args", {{"External id", 3}}}});
    events.push_back(kinetoCollective("_allgather_base", 512, 1024, "[0, 1]", 2, 110.25));
    events.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "ncclDevKernel_AllGather_RING_LL"},
                      {"pid", 0},
                      {"tid", 7},
                      {"ts", 111.0},
                      {"dur", 30.0},
                      {"args",
                       {{"Collective name", "_allgather_base"},
                        {"In msg nelems", 512},
                        {"Out msg nelems", 1024},
                        {"Group size", 2},
                        {"dtype", "BFloat16"}}}});
    events.push_back(kinetoCollective("allreduce", 4096, 4096, "[0, 1]", 2, 150.5));
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", 0},
                      {"tid", 0},
                      {"args", {{"name", "python"}}}});
    trace["traceEvents"] = events;
    trace["traceName"] = "rank" + std::to_string(rank) + ".pt.trace.json";
    return trace;
}

// The profiler's name of a collective the recorder spells `operation`
// ("_all_gather_base" is the profiler's "_allgather_base").
inline std::string profilerName(std::string_view operation) {
    static const std::map<std::string_view, std::string, std::less<>> names = {
        {"_all_gather_base", "_allgather_base"},
        {"all_reduce", "allreduce"},
        {"all_to_all", "all_to_allv"}};
    const auto found = names.find(operation);
    return found == names.end() ? std::string(operation) : found->second;
}

// What the profiler would have written on the rank of `dump`: a
// record_param_comms event per collective entry (its element counts, dtype,
// group, Seq, start and duration), each followed by its kernel.
inline TraceJson kinetoTraceOf(const FlightRecorderDump& dump, int rank, int worldSize) {
    TraceJson trace = kinetoTrace(rank);
    trace["distributedInfo"]["world_size"] = worldSize;
    TraceJson events = TraceJson::array();
    for (const FlightRecorderEntry& e : dump.entries) {
        if (e.isP2P) continue;
        const FlightRecorderGroup* group = dump.findGroup(e.pgName);
        std::string ranks = "[";
        for (int64_t r : group->ranks) ranks += (ranks.size() > 1 ? ", " : "") + std::to_string(r);
        TraceJson event = kinetoCollective(
            profilerName(e.operation()), e.inputSizes.at(0).at(0), e.outputSizes.at(0).at(0),
            ranks + "]", int64_t(group->ranks.size()), double(e.timeCreatedNs) / 1000);
        auto& args = event["args"];
        args["dtype"] = e.inputDtypes.at(0);
        args["Process Group Name"] = e.pgName;
        args["Process Group Description"] = e.pgDesc;
        args["Seq"] = e.collectiveSeqId;
        event["dur"] = e.durationMs.value_or(0) * 1000;
        events.push_back(event);
    }
    trace["traceEvents"] = events;
    return trace;
}

}  // namespace hsdp::testing
