// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "verify/run_result.h"

namespace hsdp {

// One rank's gathered copy of a param in one mode: the rows the run result
// names as wrong (Mismatch::rows, never guessed) and its text.
struct GatheredCopy {
    int rank = -1;
    std::vector<IndexRange> wrongRows;  // along tensor dim 0
    std::string text;                   // Mismatch::text
};

// A param's gathered rows in the corrected run next to the reference run.
struct WrongRows {
    int param = -1;
    std::string name;
    int64_t rows = 0;  // extent of tensor dim 0 as run
    GatherVerdict corrected = GatherVerdict::NotGathered;
    GatherVerdict reference = GatherVerdict::NotGathered;
    std::string correctedDetail, referenceDetail;
    // Every rank with a gather mismatch in either run, ascending.
    std::vector<int> ranks;
    std::vector<GatheredCopy> correctedCopies;  // parallel to `ranks`
    std::vector<GatheredCopy> referenceCopies;

    bool isValid() const { return param >= 0; }
    // Rows a picture must span: the tensor's, or more where a reference copy
    // came out longer (its extra rows, read from padding, are named as wrong).
    int64_t extent() const;
};

// -1 when neither run has `param`.
WrongRows compareWrongRows(const RunResult& corrected, const RunResult& reference, int param);

// The first param whose reference gather mismatches (what a view shows
// without a focus param), or -1.
int firstReferenceMismatch(const RunResult& reference);

}  // namespace hsdp
