// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <iterator>
#include <sstream>

#include "cluster/reader.h"
#include "commands.h"
#include "cost/plan_scenario.h"
#include "job_record/job_record_error.h"
#include "job_record/job_record_reader.h"
#include "plan/planner.h"
#include "scenario/reader.h"

namespace hsdp::cli {

std::optional<Scenario> loadScenario(const std::string& path) {
    try {
        if (path == "-") return readScenarioStream(std::cin, "<stdin>");
        return readScenarioFile(path);
    } catch (const ScenarioError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return std::nullopt;
    }
}

std::optional<Scenario> loadScenario(const std::string& path, std::string& text) {
    try {
        if (path == "-") {
            text.assign(std::istreambuf_iterator<char>(std::cin), {});
            std::istringstream in(text);
            return readScenarioStream(in, "<stdin>");
        }
        text = readScenarioFileText(path);
        std::istringstream in(text);
        return readScenarioStream(in, path);
    } catch (const ScenarioError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return std::nullopt;
    }
}

std::optional<Cluster> loadCluster(const std::string& nameOrPath) {
    try {
        return resolveCluster(nameOrPath);
    } catch (const ClusterError& error) {
        std::cerr << "hsdp-inspect: --cluster: " << error.what() << "\n";
        return std::nullopt;
    }
}

std::optional<JobRecord> loadJobRecord(const std::vector<std::string>& paths) {
    try {
        return readJobRecord(paths);
    } catch (const JobRecordError& error) {
        std::cerr << "hsdp-inspect: " << error.what() << "\n";
        return std::nullopt;
    }
}

Plan planWithStrategies(const Scenario& scenario, const std::optional<Cluster>& cluster,
                        const std::optional<std::string>& clusterArg) {
    return planScenario(scenario, cluster ? &*cluster : nullptr, clusterArg.value_or(""));
}

}  // namespace hsdp::cli
