// SPDX-License-Identifier: Apache-2.0
#include "job_record/trace_as_dump.h"

#include <map>
#include <string>

namespace hsdp {

std::string recorderOperation(std::string_view collectiveName) {
    // The profiler names a collective as c10d's RECORD_PARAM_COMMS calls do;
    // the recorder as ProcessGroupNCCL's profiling title does.
    static const std::map<std::string_view, std::string_view, std::less<>> names = {
        {"allreduce", "all_reduce"},
        {"_allgather_base", "_all_gather_base"},
        {"allgather_into_tensor", "_all_gather_base"},
        {"all_gather_into_tensor", "_all_gather_base"},
        {"allgather", "all_gather"},
        {"reduce_scatter_tensor", "_reduce_scatter_base"},
        {"alltoall_base", "all_to_all"},
        {"alltoall", "all_to_all"},
        {"all_to_allv", "all_to_all"},
        {"all_to_all_single", "all_to_all"},
        {"barrier", "all_reduce"},  // NCCL's barrier is an all-reduce of one float
    };
    const auto found = names.find(collectiveName);
    return std::string(found == names.end() ? collectiveName : found->second);
}

TraceDump dumpOfTrace(const KinetoTrace& trace) {
    TraceDump out;
    out.dump.version = "2.10";
    out.dump.encoding = DumpEncoding::Json;
    const std::string backend = trace.backend.empty() ? "nccl" : trace.backend;
    std::map<std::string, size_t> groups;  // name -> index in dump.groups
    for (const KinetoCollective& c : trace.collectives) {
        if (c.pgRanks.empty() || !c.seq) {
            ++out.skipped;
            continue;
        }
        // A group the profiler did not name is named by its members.
        std::string name = c.pgName;
        if (name.empty())
            for (int64_t r : c.pgRanks) name += (name.empty() ? "" : ",") + std::to_string(r);
        if (groups.emplace(name, out.dump.groups.size()).second)
            out.dump.groups.push_back({name, c.pgDesc, c.pgRanks});
        FlightRecorderEntry e;
        e.recordId = int64_t(out.dump.entries.size());
        e.pgId = int64_t(groups.at(name));
        e.pgName = name;
        e.pgDesc = c.pgDesc;
        e.collectiveSeqId = *c.seq;
        e.opId = *c.seq;
        e.profilingName = backend + ":" + recorderOperation(c.collectiveName);
        e.timeCreatedNs = int64_t(c.tsUs * 1000);
        e.durationMs = c.durUs / 1000;
        e.inputSizes = {{c.inNelems}};
        e.outputSizes = {{c.outNelems}};
        e.inputDtypes = e.outputDtypes = {c.dtype};
        e.state = CollectiveState::Completed;
        e.timeDiscoveredStartedNs = e.timeCreatedNs;
        e.timeDiscoveredCompletedNs = e.timeCreatedNs + int64_t(c.durUs * 1000);
        out.dump.entries.push_back(std::move(e));
    }
    return out;
}

}  // namespace hsdp
