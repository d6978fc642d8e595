// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace hsdp {

// Everything wrong with a job's record (a Flight Recorder dump, a Kineto
// trace, a folder of them), in the words every reader here uses: `file` the
// file ("" for bytes read from memory), `where` the culprit inside it (a
// pickle's "offset 1234", a JSON pointer "/entries/3/input_sizes"; "" for the
// whole file), `problem` what was expected and what was found. The CLI
// prints what() and exits 2.
class JobRecordError : public std::runtime_error {
public:
    JobRecordError(std::string where, std::string problem, std::string file = {});

    std::string where;
    std::string problem;
    std::string file;

    JobRecordError inFile(const std::string& fileName) const;
};

}  // namespace hsdp
