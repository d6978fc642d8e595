// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "job_record/flight_recorder_dump.h"
#include "job_record/kineto_trace.h"

namespace hsdp {

// What a rank's Flight Recorder would have recorded, read off its Kineto
// trace (docs/job-records.md "A trace in place of a dump"): one completed
// entry per `record_param_comms` event that names its process group's ranks
// and its sequence id (the profiler's Seq is the group's collective_seq_id),
// the collective's name as the recorder spells it ("_allgather_base" ->
// "nccl:_all_gather_base"), its element counts as one-dimensional sizes, its
// dtype, and its CPU-side duration. Events without group ranks or Seq (older
// profilers) cannot be placed in their group's sequence and are left out;
// `skipped` counts them.
struct TraceDump {
    FlightRecorderDump dump;
    size_t skipped = 0;
};
TraceDump dumpOfTrace(const KinetoTrace& trace);

// The recorder's operation for the profiler's collective name: "allreduce"
// -> "all_reduce", "_allgather_base" -> "_all_gather_base"; a name it does
// not know is kept as it is.
std::string recorderOperation(std::string_view collectiveName);

}  // namespace hsdp
