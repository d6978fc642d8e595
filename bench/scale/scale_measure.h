// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace hsdp::bench {

// One `hsdp-inspect run --json` of a scale world, as a whole process.
struct ScaleRun {
    enum class Result { Verified, Failed, TimedOut, Skipped };
    Result result = Result::Skipped;
    double wallSeconds = 0;     // the whole command, start-up and preparation included
    double connectSeconds = 0;  // the run's connect_seconds
    std::string note;           // why it failed or was skipped

    bool verified() const { return result == Result::Verified; }
};

// Runs `inspect run SCENARIO --json [extra...]`, its output kept beside the
// scenario under `outputStem`; a run past `timeoutSeconds` is killed.
ScaleRun runScaleWorld(const std::string& inspect, const std::string& scenario,
                       const std::vector<std::string>& extra, const std::string& outputStem,
                       double timeoutSeconds);

// "VERIFIED 15.5 s (14.0 s connecting)", "FAILED: why", "> 600 s", "skipped: why".
std::string scaleRunCell(const ScaleRun& run, double timeoutSeconds);
const char* resultName(ScaleRun::Result result);

// The slope of log(connect seconds) over log(sockets), least squares over the
// points given: 1 is linear growth, 2 quadratic. NaN with fewer than 2 points.
double logLogSlope(const std::vector<double>& sockets, const std::vector<double>& seconds);

}  // namespace hsdp::bench
