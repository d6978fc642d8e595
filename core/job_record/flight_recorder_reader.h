// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "job_record/flight_recorder_dump.h"
#include "job_record/job_record_error.h"

namespace hsdp {

// Reads one Flight Recorder dump, strictly (docs/job-records.md): a pickle
// (PyTorch's default; read by readPickle, never executed) or JSON
// (`_dump_nccl_trace_json`), told apart by the first bytes. The version must
// be one of kFlightRecorderVersions; an unknown key, a missing one, a value
// of the wrong type or out of range is a JobRecordError naming the JSON path
// of the first problem ("/entries/3/input_sizes"; a pickle's own problems
// name their byte offset).
FlightRecorderDump readFlightRecorderDump(std::string_view bytes);

// Same, from a file; errors (an unreadable file too) name the file.
FlightRecorderDump readFlightRecorderFile(const std::string& filePath);

// Larger files are refused: a dump of the default 2,000 entries with stack
// traces is a few megabytes, a Kineto trace of a few steps some hundreds.
inline constexpr size_t kMaxJobRecordFileBytes = size_t(1) << 30;

}  // namespace hsdp
