// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hsdp {

// One rank's PyTorch Flight Recorder dump, as readFlightRecorderDump reads it
// from either encoding (docs/job-records.md): the versions 2.3 to 2.10 that
// PyTorch has written, one struct.
inline constexpr std::array<std::string_view, 8> kFlightRecorderVersions = {
    "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10"};

// How the dump was written: pickle is PyTorch's default, JSON on request.
enum class DumpEncoding { Pickle, Json };

// What the watchdog had seen of a collective when it dumped.
enum class CollectiveState { Scheduled, Started, Completed };
std::string_view collectiveStateName(CollectiveState state);  // "scheduled", ...

// A Python stack frame of the call that issued a collective (pickle only,
// when stack traces were on).
struct FlightRecorderFrame {
    std::string name;
    std::string filename;
    int64_t line = 0;
};

struct FlightRecorderEntry {
    int64_t recordId = 0;         // the recorder's running id
    int64_t pgId = 0;             // the process group's uid on this rank
    std::string pgName;           // process_group[0]: its name, a key of pg_config
    std::string pgDesc;           // process_group[1]: its description ("default_pg", "mesh_dp")
    int64_t collectiveSeqId = 0;  // per group: counts collectives (a coalesced group once)
    int64_t p2pSeqId = 0;         // per group: counts point-to-point launches
    int64_t opId = 0;             // per group: counts every op, coalesced ones each
    std::string profilingName;    // "nccl:all_reduce", "nccl:send 0->1", "gloo:broadcast"
    int64_t timeCreatedNs = 0;
    std::optional<double> durationMs;              // when timing was on (TORCH_NCCL_ENABLE_TIMING)
    std::vector<std::vector<int64_t>> inputSizes;  // one shape per input tensor
    std::vector<std::string> inputDtypes;          // one per input tensor ("Float", "BFloat16")
    std::vector<std::vector<int64_t>> outputSizes;
    std::vector<std::string> outputDtypes;
    CollectiveState state = CollectiveState::Scheduled;
    // Absent until the watchdog saw it (None in a pickle, 0 in JSON).
    std::optional<int64_t> timeDiscoveredStartedNs;
    std::optional<int64_t> timeDiscoveredCompletedNs;
    bool retired = false;  // retired but not completed: it timed out
    int64_t timeoutMs = 0;
    bool isP2P = false;
    std::string threadName;  // 2.10 on; "" when absent
    std::string threadId;
    std::vector<FlightRecorderFrame> frames;

    // profilingName's backend ("nccl") and operation ("all_reduce", "send").
    std::string_view backend() const;
    std::string_view operation() const;
};

// A process group as pg_config names it: its ranks are global ranks.
struct FlightRecorderGroup {
    std::string name;
    std::string desc;
    std::vector<int64_t> ranks;
};

// pg_status: the last collective sequence ids a group enqueued, started and
// completed (-1: none yet).
struct FlightRecorderGroupStatus {
    int64_t pgId = 0;
    int64_t lastEnqueued = -1;
    int64_t lastStarted = -1;
    int64_t lastCompleted = -1;
};

struct FlightRecorderDump {
    std::string version;  // one of kFlightRecorderVersions
    DumpEncoding encoding = DumpEncoding::Pickle;
    std::string commLibVersion;  // comm_lib_version (nccl_version before): "2.21.5", or ""
    std::vector<FlightRecorderGroup> groups;  // pg_config, in file order
    std::vector<FlightRecorderGroupStatus> status;
    std::vector<FlightRecorderEntry> entries;  // in recording order

    // The group pg_config calls `name`, or nullptr.
    const FlightRecorderGroup* findGroup(std::string_view name) const;
};

}  // namespace hsdp
