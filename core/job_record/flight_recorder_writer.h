// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "job_record/flight_recorder_dump.h"

namespace hsdp {

// `dump` as PyTorch's recorder writes a JSON dump (`_dump_nccl_trace_json`,
// docs/job-records.md): keys sorted, pg_config's ranks as the text
// "[0, 1]", pg_status's sequence ids as decimal text, 0 for a time the
// watchdog had not seen, "entries" left out when there are none, no stack
// frames. readFlightRecorderDump reads it back to the same dump (frames and
// encoding aside).
std::string writeFlightRecorderJson(const FlightRecorderDump& dump);

}  // namespace hsdp
