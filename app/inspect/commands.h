// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster.h"
#include "job_record/job_record.h"
#include "plan/plan.h"
#include "types/scenario.h"

namespace hsdp::cli {

// Each subcommand returns the process exit code: 0 fine, 1 findings (error
// diagnostics, failed verification), 2 unreadable input or bad usage.
int planCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
int diffCommand(const std::vector<std::string>& args);
// Writes a scenario from a Hugging Face config.json and a parallelism layout.
int scenarioCommand(const std::vector<std::string>& args);
// Hands `report` to the sibling program hsdp-inspect-report (Qt) by exec.
int reportCommand(const std::vector<std::string>& args);
int workerCommand(const std::vector<std::string>& args);
int collectCommand(const std::vector<std::string>& args);
// Measures this machine and writes its hsdp-cluster/1 file.
int calibrateCommand(const std::vector<std::string>& args);
// Holds a job's Flight Recorder dumps against the plan's optimizer step.
int checkJobCommand(const std::vector<std::string>& args);

// Reads SCENARIO; on failure prints the reader's message (file, JSON path,
// what was expected) to stderr and returns nullopt: the caller exits 2.
std::optional<Scenario> loadScenario(const std::string& path);
// Same, keeping the text read (a split run hands it to its workers).
std::optional<Scenario> loadScenario(const std::string& path, std::string& text);

// A preset's name or a cluster file (--cluster); on failure prints the
// reader's message (file or preset, JSON path) and returns nullopt: exit 2.
std::optional<Cluster> loadCluster(const std::string& nameOrPath);
// A job's record from DUMP files or folders (readJobRecord), or nullopt with
// the reader's message (file and place named) on stderr.
std::optional<JobRecord> loadJobRecord(const std::vector<std::string>& paths);

// The scenario's plan, with `gather_strategy: auto` settled on the cluster
// `--cluster` names (`clusterArg`, loaded as `cluster`) or, without one, on
// the loopback preset: every command that plans, runs or merges a run
// decides the same way.
Plan planWithStrategies(const Scenario& scenario, const std::optional<Cluster>& cluster,
                        const std::optional<std::string>& clusterArg);

extern const char* const kPlanHelp;
extern const char* const kRunHelp;
extern const char* const kDiffHelp;
extern const char* const kScenarioHelp;
extern const char* const kWorkerHelp;
extern const char* const kCollectHelp;
extern const char* const kCalibrateHelp;
extern const char* const kCheckJobHelp;

}  // namespace hsdp::cli
