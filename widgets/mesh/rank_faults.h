// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <vector>

#include "derived/job/job_data.h"
#include "derived/run/run_data.h"

namespace hsdp {

// The ranks the evidence found at fault, as the mesh view marks them: a
// run's ranks whose verification named wrong rows and the rank it failed
// on, the rank of a job's first divergence from the plan.
struct RankFaults {
    std::vector<int> ranks;  // ascending, distinct
    // The legend's words for the mark: "wrong in the run (2 ranks)".
    QString label;
    // A marked rank's tooltip line, by position in `ranks`.
    std::vector<QString> reasons;

    bool isEmpty() const { return ranks.empty(); }
    // The tooltip line of `rank`, or "" when it is not marked.
    QString reasonOf(int rank) const;
};

// With `focusParam` (>= 0) that the run found wrong: only that param's wrong
// ranks (and the failing rank), the label saying whose and how many the
// whole run has; every wrong rank of the run otherwise.
RankFaults runFaults(const RunData& run, int focusParam = -1);
RankFaults jobFaults(const JobData& job);
// Both sets on one mesh: the ranks' union, the labels and reasons joined.
RankFaults mergedFaults(const RankFaults& a, const RankFaults& b);

}  // namespace hsdp
