// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include "derived/run/run_steps.h"
#include "derived/run/step_faults.h"
#include "plan/plan.h"
#include "run/real_size.h"
#include "types/scenario.h"

namespace hsdp {

// A step told in plain words, from the trace event's label and the plan
// (docs/run.md §2 and §4): what moves (headline) and why (body). The
// collective is named by its id, "#648" (the trace's seq), as everywhere.
struct StepCaption {
    // "all_gather #3 of group [0,1] (seq 12) · ranks 0, 1 · main dp_shard
    // (mesh dim 1) · 512 B per rank"
    QString headline;
    // The phase's reason, naming owners, compute ranks, params; where
    // verification found the step's result wrong it says so ("… but
    // out.reversed_ranks (ranks 0, 1) ends up wrong: see Wrong rows")
    // instead of promising what the step was meant to do.
    QString why;
    std::vector<StepFault> faults;  // what verification found wrong (none: empty)
    // The faults in words, empty without any: "Verification found this
    // step's result wrong: the gathered out.reversed_ranks on ranks 0, 1:
    // rank 0 expected rows 0..3 got rows 4..7; …"
    QString fault;
};

// `real`: a shrunk run's scale to the real shapes; every size then says it
// is of the shrunk run and gives the real-size figure beside it. `faults`:
// what verification found wrong in the step (stepFaults), none when null.
StepCaption stepCaption(const RunStep& step, const Trace& trace, const Scenario& scenario,
                        const Plan& plan, const RealScale* real = nullptr,
                        const std::vector<StepFault>* faults = nullptr);

// "#648"
QString collectiveIdText(int64_t seq);
// A byte figure of collective `label`: "184.0 KiB" or, shrunk, "184.0 KiB in
// the shrunk run (≈ 9.7 GiB at real size)" (model/figures.h).
// `what` follows each figure: " buffer", " per rank".
QString collectiveBytesText(double bytes, const CollectiveLabel& label, const RealScale* real,
                            const QString& what = {});

// "ranks 0, 1" / "rank 3"; the names of params (all of them up to 8, then a count).
QString ranksText(const std::vector<int>& ranks);
QString paramNamesText(const std::vector<int>& params, const Scenario& scenario);

}  // namespace hsdp
