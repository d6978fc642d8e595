// SPDX-License-Identifier: Apache-2.0
// Flight Recorder dumps as PyTorch writes them (docs/job-records.md), built
// here from a list of collectives so that a test knows what each dump must
// read as: the keys of each version 2.3 to 2.10, pickle's conventions (None
// for an unseen time, integers in pg_status, stack frames, tuples) or JSON's
// (0, decimal strings, no frames, arrays).
#pragma once

#include <string>
#include <vector>

#include "pickle_writer.h"

namespace hsdp::testing {

struct FixtureCollective {
    std::string pgName;
    std::string pgDesc;
    std::string profilingName;
    int64_t collectiveSeqId = 0;
    int64_t p2pSeqId = 0;
    int64_t opId = 0;
    std::vector<std::vector<int64_t>> inputSizes;
    std::vector<std::vector<int64_t>> outputSizes;
    std::string dtype;
    std::string state;  // "scheduled", "started", "completed"
    bool isP2P = false;
};

struct FixtureGroup {
    std::string name;
    std::string desc;
    std::vector<int64_t> ranks;
};

// Two groups per rank of an even world: "0" (default_pg, every rank) and
// "1" (mesh_dp, the rank and its neighbour: the same name with other
// members on ranks 2 and 3 than on 0 and 1).
inline std::vector<FixtureGroup> fixtureGroups(int rank, int worldSize) {
    std::vector<int64_t> all;
    for (int r = 0; r < worldSize; ++r) all.push_back(r);
    const int64_t first = rank - rank % 2;
    return {{"0", "default_pg", all}, {"1", "mesh_dp", {first, first + 1}}};
}

// What rank `rank` recorded: an all-reduce, an all-gather, a broadcast still
// running and a send or receive not yet started.
inline std::vector<FixtureCollective> fixtureCollectives(int rank) {
    const bool even = rank % 2 == 0;
    return {
        {"0",
         "default_pg",
         "nccl:all_reduce",
         1,
         0,
         1,
         {{1024}},
         {{1024}},
         "Float",
         "completed",
         false},
        {"1",
         "mesh_dp",
         "nccl:_all_gather_base",
         1,
         0,
         1,
         {{512}},
         {{1024}},
         "BFloat16",
         "completed",
         false},
        {"0",
         "default_pg",
         "nccl:broadcast",
         2,
         0,
         2,
         {{16, 16}},
         {{16, 16}},
         "Float",
         "started",
         false},
        {"1",
         "mesh_dp",
         even ? "nccl:send 0->1" : "nccl:recv 1<-0",
         1,
         1,
         2,
         {{8}},
         {{8}},
         "Float",
         "scheduled",
         true},
    };
}

inline bool fixtureHasThreads(const std::string& version) {
    return version == "2.10";
}

inline std::string rankText(const std::vector<int64_t>& ranks) {
    std::string out = "[";
    for (size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
    return out + "]";
}

inline PickleJson fixtureFrame(int line) {
    return {{"name", "all_reduce"},
            {"filename", "torch/distributed/distributed_c10d.py"},
            {"line", line}};
}

inline PickleJson fixtureEntry(const std::string& version, bool asJson, int64_t recordId,
                               const FixtureCollective& c) {
    const int64_t created = 1733500000000000000 + recordId * 1000;
    const bool started = c.state != "scheduled", completed = c.state == "completed";
    const PickleJson unseen = asJson ? PickleJson(0) : PickleJson(nullptr);
    PickleJson e = {{"record_id", recordId},
                    {"pg_id", c.pgName == "0" ? 0 : 1},
                    {"process_group", pickleTuple({c.pgName, c.pgDesc})},
                    {"collective_seq_id", c.collectiveSeqId},
                    {"p2p_seq_id", c.p2pSeqId},
                    {"op_id", c.opId},
                    {"profiling_name", c.profilingName},
                    {"time_created_ns", created}};
    if (completed) e["duration_ms"] = 0.25;
    e["input_sizes"] = c.inputSizes;
    e["input_dtypes"] = std::vector<std::string>(c.inputSizes.size(), c.dtype);
    e["output_sizes"] = c.outputSizes;
    e["output_dtypes"] = std::vector<std::string>(c.outputSizes.size(), c.dtype);
    e["state"] = c.state;
    e["time_discovered_started_ns"] = started ? PickleJson(created + 10) : unseen;
    e["time_discovered_completed_ns"] = completed ? PickleJson(created + 20) : unseen;
    e["retired"] = completed;
    e["timeout_ms"] = 600000;
    e["is_p2p"] = c.isP2P;
    if (fixtureHasThreads(version)) {
        e["thread_name"] = "pt_main_thread";
        e["thread_id"] = "140000000000";
    }
    if (!asJson) e["frames"] = PickleJson::array({fixtureFrame(2696), fixtureFrame(83)});
    return e;
}

inline PickleJson fixtureStatus(const std::vector<FixtureGroup>& groups, bool asJson) {
    PickleJson status = PickleJson::object();
    for (size_t id = 0; id < groups.size(); ++id) {
        const int64_t seqs[3] = {2, int64_t(id == 0 ? 2 : 1), 1};
        PickleJson row;
        const char* keys[3] = {"last_enqueued_collective", "last_started_collective",
                               "last_completed_collective"};
        for (int k = 0; k < 3; ++k)
            row[keys[k]] = asJson ? PickleJson(std::to_string(seqs[k])) : PickleJson(seqs[k]);
        status[std::to_string(id)] = row;
    }
    return status;
}

// Rank `rank`'s dump as version `version` writes it, pickle's way or JSON's.
inline PickleJson fixtureDump(const std::string& version, bool asJson, int rank, int worldSize) {
    const auto groups = fixtureGroups(rank, worldSize);
    PickleJson dump = {{"version", version}};
    if (version == "2.10")
        dump["comm_lib_version"] = "2.21.5";
    else if (version != "2.3" && version != "2.4")
        dump["nccl_version"] = "2.20.5";
    PickleJson config = PickleJson::object();
    for (const auto& g : groups)
        config[g.name] = {{"name", g.name}, {"desc", g.desc}, {"ranks", rankText(g.ranks)}};
    dump["pg_config"] = config;
    dump["pg_status"] = fixtureStatus(groups, asJson);
    PickleJson entries = PickleJson::array();
    const auto collectives = fixtureCollectives(rank);
    for (size_t i = 0; i < collectives.size(); ++i)
        entries.push_back(fixtureEntry(version, asJson, int64_t(i), collectives[i]));
    dump["entries"] = entries;
    return dump;
}

// The dump's bytes: a pickle (protocol 2, PyTorch's) or JSON text.
inline std::string fixtureDumpBytes(const std::string& version, bool asJson, int rank,
                                    int worldSize) {
    const PickleJson dump = fixtureDump(version, asJson, rank, worldSize);
    return asJson ? plainJson(dump).dump() : writePickle(dump, 2, /*shareEqualDicts=*/true);
}

}  // namespace hsdp::testing
