// SPDX-License-Identifier: Apache-2.0
#include "plan_scaling.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "bench_common.h"
#include "plan_agreement.h"
#include "process_run.h"

namespace hsdp::bench {

namespace {

std::string stderrTail(const std::string& outPath) {
    std::ifstream in(outPath + ".err");
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    return s.size() > 400 ? "..." + s.substr(s.size() - 400) : s;
}

// One more sample of `side`, unless it already stopped.
void sample(SideTiming& side, const std::vector<std::string>& argv, const std::string& outPath,
            double timeoutSeconds) {
    if (!side.ok()) return;
    ProcessRun run = runProcess(argv, outPath, timeoutSeconds);
    if (!run.error.empty()) {
        side.status = "failed: " + run.error;
    } else if (run.timedOut) {
        side.status = "timeout";
    } else if (run.exitCode != 0) {
        side.status = "failed: exit " + std::to_string(run.exitCode) + " " + stderrTail(outPath);
    } else {
        side.wall.push_back(run.wallSeconds);
        side.cpu.push_back(run.cpuSeconds);
    }
}

std::string writeScenario(const ScalePoint& point, const std::string& dir) {
    const std::string path = dir + "/moe_" + std::to_string(point.params()) + "_params_" +
                             std::to_string(point.ranks()) + "_ranks.json";
    std::ofstream(path) << scenarioJson(point);
    return path;
}

}  // namespace

double SideTiming::medianWall() const {
    return wall.empty() ? 0 : median(wall);
}
double SideTiming::medianCpu() const {
    return cpu.empty() ? 0 : median(cpu);
}

double PointTiming::ratio() const {
    if (!cpp.ok() || !port.ok() || cpp.wall.empty() || port.wall.empty()) return 0;
    return port.medianWall() / cpp.medianWall();
}

PointTiming measurePoint(const ScalePoint& point, const PlanTools& tools, const std::string& dir,
                         const MeasureOptions& options) {
    PointTiming out{point, {}, {}};
    const std::string scenario = writeScenario(point, dir);
    const std::string cppOut = scenario + ".cpp-plan.json", portOut = scenario + ".port-plan.json";
    if (!options.runPort) out.port.status = "skipped";
    auto runCpp = [&] {
        sample(out.cpp, {tools.inspect, "plan", "--json", scenario}, cppOut,
               options.cppTimeoutSeconds);
    };
    auto runPort = [&] {
        sample(out.port, {tools.python, tools.port, scenario}, portOut, options.portTimeoutSeconds);
    };
    for (int round = 0; round < options.rounds; ++round) {
        if (round % 2 == 0) {
            runCpp();
            runPort();
        } else {
            runPort();
            runCpp();
        }
    }
    if (out.cpp.ok() && out.port.ok()) {
        std::string differs = planDisagreement(cppOut, portOut);
        out.agreement = differs.empty() ? "identical" : differs;
    }
    return out;
}

double growthExponent(double time1, double time2, double work1, double work2) {
    if (time1 <= 0 || time2 <= 0 || work1 <= 0 || work2 <= 0 || work1 == work2) return 0;
    return std::log(time2 / time1) / std::log(work2 / work1);
}

double planWork(const ScalePoint& point) {
    return double(point.params()) * double(point.replicateCoords());
}

}  // namespace hsdp::bench
