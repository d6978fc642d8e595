// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>
#include <memory>

#include "derived/plan/plan_result.h"
#include "verify/run_result.h"

namespace hsdp {

struct RunIndex;
struct RunPredictionData;

// One finished (or failed, or cancelled) run as the run views show it: the
// plan that ran and the engine's RunResult with its trace. Built off the GUI
// thread and shared read-only, like PlanResult: views keep the pointers and
// never recompute what the engine recorded (verdicts, events, segments).
struct RunData {
    PlanResult plan;
    std::shared_ptr<const RunResult> run;
    QString source{};  // the run --json file it was opened from; empty for a run made here
    // The run held against its prediction on the plan's cluster, at the run's
    // own shapes (prediction/plan_prediction.h); null: no cluster, or no measured step.
    std::shared_ptr<const RunPredictionData> prediction{};
    // Its trace indexed for the run views (runs/run_index.h), built with
    // it; null when made elsewhere (runIndexOf builds it then).
    std::shared_ptr<const RunIndex> index{};

    bool isValid() const { return plan.isValid() && run != nullptr; }
};

}  // namespace hsdp

Q_DECLARE_METATYPE(hsdp::RunData)
