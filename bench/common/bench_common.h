// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <vector>

namespace hsdp::bench {

inline double secondsOf(const std::function<void()>& work) {
    auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The process's CPU seconds (user + system) spent in `work`: unlike wall time,
// not inflated by whatever else the machine runs.
inline double cpuSecondsOf(const std::function<void()>& work) {
    const std::clock_t start = std::clock();
    work();
    return double(std::clock() - start) / CLOCKS_PER_SEC;
}

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Runs each contender once per round, interleaved, so drift in machine load
// hits all of them alike; returns the per-contender samples.
inline std::vector<std::vector<double>> interleaved(
    int rounds, const std::vector<std::function<void()>>& contenders) {
    std::vector<std::vector<double>> samples(contenders.size());
    for (int r = 0; r < rounds; ++r)
        for (size_t c = 0; c < contenders.size(); ++c)
            samples[c].push_back(secondsOf(contenders[c]));
    return samples;
}

// Each benchmark, and its --help: what it measures, its options, its exit status.
int planBenchmark(const std::vector<std::string>& args);
int gatherBenchmark(const std::vector<std::string>& args);
int viewsBenchmark(const std::vector<std::string>& args);
int scaleBenchmark(const std::vector<std::string>& args);
int costBenchmark(const std::vector<std::string>& args);
int predictBenchmark(const std::vector<std::string>& args);
extern const char* const kPlanHelp;
extern const char* const kGatherHelp;
extern const char* const kViewsHelp;
extern const char* const kScaleHelp;
extern const char* const kCostHelp;
extern const char* const kPredictHelp;

}  // namespace hsdp::bench
