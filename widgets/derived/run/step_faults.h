// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "derived/run/run_steps.h"
#include "verify/run_result.h"

namespace hsdp {

// What the run's verification (docs/run.md §5) found wrong in what one step
// produced, for one of the params (or the TP transition) whose data it
// moved: a gather's full copies, an update or replica broadcast's final
// params, a TP transition's output. Only the checks of the step's own
// ranks count: a gather that left the param right on its group is not at
// fault for another group's mistake, nor for a wrong update sliced later.
// A reference run shows the reference's known bugs this way (a shard group
// whose ranks run out of mesh order gathers the rows in the wrong order).
struct StepFault {
    int param = -1;          // the param, or -1: the TP transition `tpTransition`
    int tpTransition = -1;   // -1 for a param
    QString name;            // of the param or the transition
    bool gathered = false;   // its gathered copy is wrong (Wrong rows draws it), else its result
    std::vector<int> ranks;  // the step's ranks the checks name, ascending (empty: none named)
    QString text;            // what they found there: the mismatches' or the errors' texts

    bool operator==(const StepFault&) const = default;
};

// Each step's faults, by the step's collective id (steps without fault are
// absent): a run of a hundred thousand correct collectives holds nothing.
using StepFaults = std::unordered_map<int64_t, std::vector<StepFault>>;

std::vector<StepFault> stepFaults(const RunStep& step, const RunResult& run);
StepFaults stepFaults(const std::vector<RunStep>& steps, const RunResult& run);

// "out.reversed_ranks (ranks 0, 1)", "a, b (rank 3)": the faults' names and ranks.
QString faultNamesText(const std::vector<StepFault>& faults);

}  // namespace hsdp
