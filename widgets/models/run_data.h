#pragma once

#include <QMetaType>
#include <memory>

#include "models/plan_result.h"
#include "verify/run_result.h"

namespace hsdp {

// One finished (or failed, or cancelled) run as the run views show it: the
// plan that ran and the engine's RunResult with its trace. Built off the GUI
// thread and shared read-only, like PlanResult: views keep the pointers and
// never recompute what the engine recorded (verdicts, events, segments).
struct RunData {
    PlanResult plan;
    std::shared_ptr<const RunResult> run;

    bool isValid() const { return plan.isValid() && run != nullptr; }
};

}  // namespace hsdp

Q_DECLARE_METATYPE(hsdp::RunData)
