// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QString>

#include "derived/job/job_data.h"
#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"

namespace hsdp {

// What a report is made of: the plan on screen (or read by the CLI), its
// last run if any, and the words around them.
struct ReportInput {
    PlanResult plan;
    RunData run;  // invalid: a plan-only report
    // For a reference run: the corrected run of the same plan, which the
    // wrong-rows pictures draw it against (invalid: no pictures of them).
    RunData comparison;
    // A job's record checked against the plan (hsdp-inspect check-job, the
    // Job view): a "Job check" section; invalid: none.
    JobData job;
    QString title;        // empty: "HSDP plan report: <scenario name>"
    QString command;      // the hsdp-inspect command that reproduces the report
    QString commandNote;  // e.g. that the studio's document has unsaved edits
    QDateTime date;       // invalid: now
};

}  // namespace hsdp
