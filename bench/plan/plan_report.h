// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan_scaling.h"

namespace hsdp::bench {

using Json = nlohmann::ordered_json;

// How the table was measured, for its headings.
struct ScalingSetup {
    int rounds = 0;
    double portLimitSeconds = 0;
    double goalRatio = 0;  // at guardPoint()
};

// Prints the scaling table to `text` and returns the same figures as JSON:
// per row both sides' medians, the ratio, whether the plans agree and the
// growth exponent in params x replicate coordinates from the row above.
Json scalingReport(const std::vector<PointTiming>& rows, const ScalingSetup& setup,
                   std::ostream& text);
Json pointJson(const PointTiming& row, double cppExponent, double portExponent);

// A side's median wall time, "> N s" after a timeout, or why it did not run.
std::string sideCell(const SideTiming& side, double limitSeconds);
std::string fixed(double value, int digits);
// One line per failed side or disagreeing plan; "" when there are none.
std::string problems(const std::vector<PointTiming>& rows);

}  // namespace hsdp::bench
