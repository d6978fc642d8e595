// SPDX-License-Identifier: Apache-2.0
#pragma once

// A scenario file planned and run in one mode, as the views are shown it.

#include <QString>
#include <memory>

#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"
#include "run/runner.h"

namespace hsdp::testing {

inline RunData runScenarioFile(const QString& path, RunMode mode = RunMode::Corrected) {
    RunData data;
    data.plan = computePlanResult(path);
    RunOptions options;
    options.mode = mode;
    data.run =
        std::make_shared<const RunResult>(runPlan(*data.plan.scenario, *data.plan.plan, options));
    return data;
}

}  // namespace hsdp::testing
