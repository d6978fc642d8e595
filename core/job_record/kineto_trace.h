// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hsdp {

// A collective as PyTorch's profiler records it in a Kineto trace (Chrome
// JSON): a `record_param_comms` CPU event whose args carry the collective's
// metadata (docs/job-records.md).
struct KinetoCollective {
    size_t eventIndex = 0;         // in traceEvents, for messages
    std::string collectiveName;    // "Collective name": "allreduce", "_allgather_base", ...
    int64_t inNelems = 0;          // "In msg nelems"
    int64_t outNelems = 0;         // "Out msg nelems"
    int64_t groupSize = 0;         // "Group size"
    std::string dtype;             // "dtype": "Float", "BFloat16"
    std::string pgName;            // "Process Group Name", "" when absent
    std::string pgDesc;            // "Process Group Description"
    std::vector<int64_t> pgRanks;  // "Process Group Ranks" (global ranks), empty when absent
    std::optional<int64_t> seq;    // "Seq", when the profiler wrote it
    double tsUs = 0;               // start, microseconds
    double durUs = 0;
};

struct KinetoTrace {
    // distributedInfo's rank and world size, when the trace has them.
    std::optional<int64_t> rank;
    std::optional<int64_t> worldSize;
    std::string backend;                        // distributedInfo.backend ("nccl"), or ""
    std::vector<KinetoCollective> collectives;  // in traceEvents order
};

}  // namespace hsdp
