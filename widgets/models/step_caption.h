#pragma once

#include <QString>

#include "model/scenario.h"
#include "models/run_steps.h"
#include "plan/plan.h"

namespace hsdp {

// A step told in plain words, from the trace event's label and the plan
// (docs/run.md §2 and §4): what moves (headline) and why (body).
struct StepCaption {
    QString headline;  // "all_gather · ranks 0, 1 · main dp_shard (mesh dim 1) · 512 B per rank"
    QString why;       // the phase's reason, naming owners, compute ranks, params
};

StepCaption stepCaption(const RunStep& step, const Trace& trace, const Scenario& scenario,
                        const Plan& plan);

// "ranks 0, 1" / "rank 3"; the names of params (all of them up to 8, then a count).
QString ranksText(const std::vector<int>& ranks);
QString paramNamesText(const std::vector<int>& params, const Scenario& scenario);

}  // namespace hsdp
