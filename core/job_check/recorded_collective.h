// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types/dtype.h"

namespace hsdp {

// How PyTorch's Flight Recorder records one of the engine's collectives on
// NCCL (docs/job-records.md, "Runs as dumps"): the one definition both the
// run's exported dumps (export/flight_recorder_export) and check-job's
// expectations (job_check/planned_collectives) use, so a run's dumps and the
// plan can only agree or disagree on the job, never on the spelling.

// What one member hands a collective: the engine's op name (TraceEvent::op),
// its input's and output's bytes, a reduction's element type, and the element
// types of what it carries (its params', or the TP transition's tensor's).
struct CollectiveBuffers {
    std::string op;
    int64_t inputBytes = 0;
    int64_t outputBytes = 0;
    std::optional<DType> reduction;
    std::vector<DType> contents;
};

// The fields of a Flight Recorder entry that say what was moved.
struct RecordedForm {
    std::string profilingName;
    std::vector<std::vector<int64_t>> inputSizes, outputSizes;
    std::vector<std::string> inputDtypes, outputDtypes;
    bool operator==(const RecordedForm&) const = default;
};

// PyTorch's name of an element type (c10::toString(ScalarType)): "Float", "BFloat16".
std::string torchDtypeName(DType dtype);

// The c10d call the plan's job makes for an engine op on NCCL:
// "all_gather" -> "nccl:_all_gather_base", "barrier" -> "nccl:all_reduce".
std::string profilingNameOf(std::string_view op);

// The entry's form: sizes in elements of the reduction's type, else of the
// contents' shared type when both buffers hold whole elements of it, else
// bytes ("Byte"); a barrier is NCCL's all-reduce of one float.
RecordedForm recordedForm(const CollectiveBuffers& buffers);

}  // namespace hsdp
