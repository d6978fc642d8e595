#pragma once

#include <cstddef>

#include "model/scenario.h"

namespace hsdp::bench {

Scenario largePlanScenario();

struct LargePlanTiming {
    double planSeconds = 0;
    double jsonSeconds = 0;
    size_t jsonBytes = 0;
};
LargePlanTiming timeLargePlan(const Scenario& scenario);

}  // namespace hsdp::bench
