// SPDX-License-Identifier: Apache-2.0
// hsdp-bench scale: one run of one world as the user starts it.
#include "scale_measure.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "process_run.h"

namespace hsdp::bench {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The last line of the run's stderr that says what went wrong.
std::string lastErrorLine(const std::string& errPath) {
    std::istringstream lines(readFile(errPath));
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty() && line[0] != '[') last = line;  // "[ 12%] ..." is progress
    return last.empty() ? "no message (see " + errPath + ")" : last;
}

std::string seconds(double s) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(s < 10 ? 2 : 1);
    out << s << " s";
    return out.str();
}

// The table shows a message's start; --json keeps it whole.
std::string shortened(const std::string& text) {
    constexpr size_t kWidth = 110;
    return text.size() <= kWidth ? text : text.substr(0, kWidth) + "...";
}

}  // namespace

ScaleRun runScaleWorld(const std::string& inspect, const std::string& scenario,
                       const std::vector<std::string>& extra, const std::string& outputStem,
                       double timeoutSeconds) {
    std::vector<std::string> argv = {inspect, "run", scenario, "--json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const std::string outPath = outputStem + ".json";
    const ProcessRun process = runProcess(argv, outPath, timeoutSeconds);
    ScaleRun run;
    run.wallSeconds = process.wallSeconds;
    if (!process.error.empty()) {
        run.result = ScaleRun::Result::Failed;
        run.note = process.error;
        return run;
    }
    if (process.timedOut) {
        run.result = ScaleRun::Result::TimedOut;
        return run;
    }
    const auto json = nlohmann::json::parse(readFile(outPath), nullptr, false);
    if (json.is_object() && json.contains("connect_seconds"))
        run.connectSeconds = json["connect_seconds"].get<double>();
    const bool verified = json.is_object() && json.value("verified", false);
    run.result =
        verified && process.exitCode == 0 ? ScaleRun::Result::Verified : ScaleRun::Result::Failed;
    if (!verified)
        run.note = json.is_object() && json.contains("error") ? json["error"].get<std::string>()
                                                              : lastErrorLine(outPath + ".err");
    return run;
}

std::string scaleRunCell(const ScaleRun& run, double timeoutSeconds) {
    switch (run.result) {
        case ScaleRun::Result::Verified:
            return "VERIFIED " + seconds(run.wallSeconds) + " (" + seconds(run.connectSeconds) +
                   " connecting)";
        case ScaleRun::Result::Failed:
            return "FAILED after " + seconds(run.wallSeconds) + ": " + shortened(run.note);
        case ScaleRun::Result::TimedOut:
            return "stopped at the limit, > " + seconds(timeoutSeconds);
        case ScaleRun::Result::Skipped:
            return "skipped: " + run.note;
    }
    return "";
}

const char* resultName(ScaleRun::Result result) {
    switch (result) {
        case ScaleRun::Result::Verified:
            return "verified";
        case ScaleRun::Result::Failed:
            return "failed";
        case ScaleRun::Result::TimedOut:
            return "timed-out";
        case ScaleRun::Result::Skipped:
            return "skipped";
    }
    return "";
}

double logLogSlope(const std::vector<double>& sockets, const std::vector<double>& seconds) {
    const size_t n = std::min(sockets.size(), seconds.size());
    if (n < 2) return std::numeric_limits<double>::quiet_NaN();
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = std::log(sockets[i]), y = std::log(seconds[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double denominator = double(n) * sxx - sx * sx;
    if (denominator == 0) return std::numeric_limits<double>::quiet_NaN();
    return (double(n) * sxy - sx * sy) / denominator;
}

}  // namespace hsdp::bench
