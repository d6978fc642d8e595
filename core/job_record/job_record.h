// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "job_record/flight_recorder_dump.h"
#include "job_record/kineto_trace.h"

namespace hsdp {

// One job's record: the Flight Recorder dumps and Kineto traces of its ranks,
// keyed by global rank (readJobRecord finds the ranks: docs/job-records.md).
struct JobRecord {
    std::map<int64_t, FlightRecorderDump> dumps;
    std::map<int64_t, std::string> dumpFiles;  // the file each dump came from
    std::map<int64_t, KinetoTrace> traces;
    std::map<int64_t, std::string> traceFiles;
    // Ranks without a Flight Recorder dump whose dump is the one their trace
    // implies (dumpOfTrace; its file is the trace's), and the trace
    // collectives that could not be placed so (no group ranks or Seq).
    std::vector<int64_t> ranksFromTrace;
    size_t traceCollectivesSkipped = 0;
    // 1 + the highest rank a file or a process group names.
    int64_t worldSize = 0;
    // Ranks below worldSize that no dump covers (a rank that hung before
    // dumping, a file not copied), ascending; and the same for traces when
    // there are traces.
    std::vector<int64_t> ranksWithoutDump;
    std::vector<int64_t> ranksWithoutTrace;
};

// A process group across the job: pg_config's groups of every dump joined by
// name and members (the same name with other members, as split groups make,
// is another group), with each member's entries of that group in
// collective_seq_id order (point-to-point entries by p2p_seq_id after them).
// Entries point into the JobRecord, which must outlive this.
struct ProcessGroupRecord {
    std::string name;
    std::string desc;
    std::vector<int64_t> ranks;  // global ranks, as pg_config lists them
    std::map<int64_t, std::vector<const FlightRecorderEntry*>> entriesByRank;
};

// Every process group of the job's dumps, ordered by name then members.
std::vector<ProcessGroupRecord> processGroupRecords(const JobRecord& job);

}  // namespace hsdp
