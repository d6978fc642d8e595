// SPDX-License-Identifier: Apache-2.0
#include "tensor_layout/wrong_row_overlay.h"

#include <algorithm>

namespace hsdp {

namespace {

const ParamRunResult* findParam(const RunResult& run, int param) {
    for (const ParamRunResult& p : run.params)
        if (p.index == param) return &p;
    return nullptr;
}

// The mismatch to draw among `mismatches` for `rank` (-1: any rank), by
// the order of `what` kinds above.
const Mismatch* pick(const std::vector<Mismatch>& mismatches, int rank) {
    for (const char* what : {"gather", "update", "step"})
        for (const Mismatch& m : mismatches)
            if (m.what == what && !m.rows.empty() && (rank < 0 || m.rank == rank)) return &m;
    return nullptr;
}

}  // namespace

WrongRowOverlay wrongRowsOf(const RunResult& run, int param, const std::vector<int>& ranks) {
    WrongRowOverlay out;
    const ParamRunResult* result = findParam(run, param);
    if (!result) return out;
    const Mismatch* chosen = nullptr;
    for (int rank : ranks)
        if ((chosen = pick(result->mismatches, rank))) break;
    if (!chosen) chosen = pick(result->mismatches, -1);
    if (!chosen) return out;
    out.param = param;
    out.rank = chosen->rank;
    out.what = chosen->what;
    out.text = chosen->text;
    out.runRows = result->shapeRun.empty() ? 0 : result->shapeRun.front();
    for (size_t i = 0; i < chosen->rows.size(); ++i)
        out.bands.push_back(
            {chosen->rows[i], i < chosen->heldRows.size() ? chosen->heldRows[i] : IndexRange{}});
    return out;
}

}  // namespace hsdp
