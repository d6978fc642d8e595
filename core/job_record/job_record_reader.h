// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "job_record/job_record.h"
#include "job_record/job_record_error.h"

namespace hsdp {

// Reads one job's record from `paths`: files, or folders whose every file
// (not those starting with '.', not subfolders) is read. Each file is a
// Flight Recorder dump (pickle or JSON) or a Kineto trace, told apart by its
// bytes. A dump's rank is the number its file name ends in, as PyTorch
// names them and fr_trace reads them ("nccl_trace_rank_3", also
// "rank3.json", "rank3.pkl"); a trace's rank is its distributedInfo.rank,
// else its file name's. Two files of one kind for one rank, a file whose
// rank cannot be found, or any file a reader refuses is a JobRecordError
// naming the file; ranks without a file are listed in the record. A rank
// with a trace and no dump gets the dump its trace implies (dumpOfTrace),
// so a job profiled but not dumped is checked all the same. A stop
// requested on `stop` ends the reading before the next file with a
// JobRecordError saying it was cancelled (a job of thousands of dumps).
JobRecord readJobRecord(const std::vector<std::string>& paths, std::stop_token stop = {});

// The rank a dump's file name ends in, after one ".json", ".pkl" or
// ".pickle": "nccl_trace_rank_12" -> 12; nullopt when it ends in no digits.
std::optional<int64_t> rankFromFileName(std::string_view fileName);

}  // namespace hsdp
