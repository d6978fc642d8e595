// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/trace.h"
#include "verify/run_sink.h"

namespace hsdp {

// What one process of a split run brings home: its ranks' reports, as the
// RunSink kept them (not yet judged: replicas and partial TP outputs are
// judged across every rank), its trace and its failure, if any.
struct ShareOutcome {
    int proc = 0;
    std::vector<int> ranks;
    std::map<int, RunSink::ParamRecords> params;
    std::map<int, RunSink::TpRecords> transitions;
    std::map<int, StepMemory> memory;  // by rank: each rank's step memory
    Trace trace;                       // times in microseconds since this process's start
    double startEpochUs = 0;           // that start, CLOCK_REALTIME: aligns the processes' clocks
    double connectSeconds = 0;         // until every process had connected (RunResult's)
    std::string error;                 // the process's first failure, empty when none
    int errorRank = -1;
    double errorEpochUs = 0;  // when it was noted: the earliest across processes leads
    bool cancelled = false;
};

// A compact binary form (CBOR) that reads back exactly, floats and all.
std::string encodeShare(const ShareOutcome& share);
// Throws std::runtime_error for bytes that are no share.
ShareOutcome decodeShare(const std::string& bytes);

}  // namespace hsdp
