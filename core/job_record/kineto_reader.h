// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "job_record/job_record_error.h"
#include "job_record/kineto_trace.h"

namespace hsdp {

// Reads a Kineto trace (the profiler's Chrome JSON) for its collectives:
// `traceEvents` must be an array of objects; every `record_param_comms`
// event is read strictly (its ph, ts, dur and the args the profiler gives
// collectives); `distributedInfo`, when present, gives the rank. The rest of
// a trace (kernels, other ops, metadata) is the profiler's business and only
// checked to be objects. Errors are JobRecordErrors naming the JSON path
// ("/traceEvents/12/args/In msg nelems").
KinetoTrace readKinetoTrace(std::string_view text);

// Same, from a file; errors name the file.
KinetoTrace readKinetoTraceFile(const std::string& filePath);

// True when `text` looks like a Kineto trace rather than a Flight Recorder
// dump: a "traceEvents" key in its first mebibyte (Kineto writes it after
// the device properties and distributedInfo).
bool looksLikeKinetoTrace(std::string_view text);

}  // namespace hsdp
