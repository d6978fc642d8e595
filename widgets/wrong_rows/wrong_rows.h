// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
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
// Whether `param`'s gather mismatches in `run`.
bool gatherMismatched(const RunResult& run, int param);

// A param the run failed with an error (its gather's or its step's verdict
// "error": the reference raised, a transfer failed): there may be no
// gathered rows to draw, so Wrong rows gives it a row of text.
struct ErrorRow {
    int param = -1;
    std::string name;
    // "gather error: ranks 0, 1, 2: the reference's all_gather_into_tensor …":
    // which checks failed, then the errors the detail names (else the detail).
    QString text;
};

// Every param of `run` that failed with an error, in param order.
std::vector<ErrorRow> errorRows(const RunResult& run);

}  // namespace hsdp
