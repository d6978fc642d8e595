// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "job_check/recorded_collective.h"
#include "job_check/run_dump.h"
#include "job_record/flight_recorder_dump.h"
#include "runtime/trace.h"
#include "types/scenario.h"

namespace hsdp {

struct FlightRecorderExportOptions {
    // The wall clock at the run's start (ns since the epoch): the trace's
    // microseconds count from there.
    int64_t runStartNs = 0;
    int64_t timeoutMs = 600000;  // every collective's timeout
    // Whether completed entries carry duration_ms. A shrunk run's times are
    // of smaller tensors than the real sizes recorded: its dumps carry none,
    // as a job without TORCH_NCCL_ENABLE_TIMING, so nothing fits them.
    bool timed = true;
    // Per trace event (index into Trace::events), the buffers to record
    // instead of the event's own: the plan's real sizes for a shrunk run
    // (job_check/run_dump.h); absent or nullopt: the event's own.
    std::vector<std::optional<CollectiveBuffers>> buffers;
    // The collectives ranks had entered when a failed run stopped: each is
    // recorded after the rank's completed ones, started and never completed.
    std::vector<PendingCollective> pending;
};

// The run's collectives as PyTorch's Flight Recorder (version 2.10) would
// have recorded them on each rank of `worldSize` (docs/job-records.md,
// "Runs as dumps"): one dump per rank, index = rank. Process groups are
// named as c10d names them ("0" the world, default_pg; then "1", "2", ... in
// the order the run first used them, described "mesh_<dim name>"), each
// group's collectives numbered 1, 2, ... per rank (collective_seq_id =
// op_id), their profiling names, sizes and dtypes as the table of that
// page says (job_check/recorded_collective.h), every one completed and
// retired, with its duration; then options.pending, started.
std::vector<FlightRecorderDump> runFlightRecorderDumps(const Trace& trace, const Scenario& scenario,
                                                       int worldSize,
                                                       const FlightRecorderExportOptions& options);

}  // namespace hsdp
