// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "scale_scenario.h"

namespace hsdp::bench {

// The two planners, each run as a whole process on a scenario file.
struct PlanTools {
    std::string inspect;  // hsdp-inspect: `plan --json SCENARIO`
    std::string python;   // interpreter for the port
    std::string port;     // tests/seed_port/hsdp_seed_plan.py: `SCENARIO` -> plan JSON on stdout
};

struct MeasureOptions {
    int rounds = 3;
    double portTimeoutSeconds = 60;
    double cppTimeoutSeconds = 600;
    bool runPort = true;
};

// Samples of one side at one point, or why there are none.
struct SideTiming {
    std::vector<double> wall, cpu;
    std::string status = "ok";  // ok | timeout | skipped | failed: ...
    bool ok() const { return status == "ok"; }
    double medianWall() const;  // 0 without samples
    double medianCpu() const;
};

struct PointTiming {
    ScalePoint point;
    SideTiming cpp, port;
    std::string agreement = "not compared";  // "identical" or what differs
    double ratio() const;                    // port / C++ median wall time; 0 unless both ran
};

// Writes the point's scenario into `dir`, then runs both planners on it,
// interleaved (the order alternates by round), and compares their plans.
PointTiming measurePoint(const ScalePoint& point, const PlanTools& tools, const std::string& dir,
                         const MeasureOptions& options);

// Exponent e of time ~ work^e between two points; 0 when not measurable.
double growthExponent(double time1, double time2, double work1, double work2);
// Work measure of the scaling goal: params x replicate coordinates.
double planWork(const ScalePoint& point);

}  // namespace hsdp::bench
