// SPDX-License-Identifier: Apache-2.0
#include "job_record/job_record_error.h"

#include "scenario/scenario_error.h"

namespace hsdp {

JobRecordError::JobRecordError(std::string where_, std::string problem_, std::string file_)
    : std::runtime_error(inputErrorMessage(file_, where_, problem_)),
      where(std::move(where_)),
      problem(std::move(problem_)),
      file(std::move(file_)) {}

JobRecordError JobRecordError::inFile(const std::string& fileName) const {
    return JobRecordError(where, problem, fileName);
}

}  // namespace hsdp
