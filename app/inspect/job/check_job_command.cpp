// SPDX-License-Identifier: Apache-2.0
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "cost/gather_strategy_choice.h"
#include "cost/plan_cost.h"
#include "cost/predicted_trace.h"
#include "job_check/job_check.h"
#include "job_check/job_check_json.h"
#include "job_check/job_check_text.h"
#include "job_check/recorded_timeline.h"
#include "job_record/job_record_reader.h"
#include "rank_timeline.h"
#include "recorded_times.h"

namespace hsdp::cli {

const char* const kCheckJobHelp =
    R"(usage: hsdp-inspect check-job [options] SCENARIO DUMP...

Holds a real job's PyTorch Flight Recorder dumps (files, or folders of them:
one per rank, pickle or JSON, as docs/job-records.md reads them) against the
scenario's plan; a rank profiled but not dumped is read off its Kineto trace
(record_param_comms events with "Process Group Ranks" and "Seq"). Every
recorded collective is matched to the plan's optimizer step, process groups
by their member ranks, then each member's entries in collective_seq_id order
(seq s is the step's collective (s-1) mod L of the group's L, training step
(s-1)/L + 1), at the scenario's real shapes. Each divergence is said in one
sentence, the one to look at first before the rest:

  missing     a rank never recorded a collective its peers recorded, or one
              before its later entries
  unexpected  a collective the plan's step does not make (or in a group the
              plan does not have; the world group's barriers are left aside)
  size        the planned collective with other input or output sizes
  dtype       the planned collective and sizes in another dtype
  stuck       started, never completed, while peers completed it or as the
              rank's last entry (its age: to the dumps' newest time)
  order       two adjacent collectives recorded the other way round

Where every member of a collective recorded its duration (Flight Recorder
with TORCH_NCCL_ENABLE_TIMING=1, or Kineto), the recorded times follow per op beside the
cost model's for the same collectives ("timings" in --json).

`run --flight-recorder DIR SCENARIO` writes the dumps the plan's job would
record; `check-job SCENARIO DIR` passes them.

options:
  --json               print the result as hsdp-job-check/1 JSON
  --cluster NAME|FILE  settle options.gather_strategy "auto" on this cluster,
                       as the job's run did, and predict the recorded
                       collectives' times on it (default: the loopback preset)
  --                   end of options
  -h, --help           show this help

exit status: 0 the record is exactly the plan (every recorded collective
matched, sizes and dtypes as planned); 1 divergences; 2 a scenario or dump
that cannot be read (the file and the place in it named), a record with no
collective to check, or bad usage.

docs/job-records.md ("Checking a job against its plan") in the source tree.
)";

namespace {

// The ranks of the per-rank timeline: a screenful, evenly spaced.
constexpr size_t kTimelineRanks = 8;

// The recorded timeline's ranks beside their predicted step on `cluster`
// (none when nothing is timed: the prediction is then not worked out).
std::vector<RankTimeline> rankTimelinesBesidePrediction(const Scenario& scenario, const Plan& plan,
                                                        const RecordedTimeline& recorded,
                                                        const Cluster& cluster) {
    if (recorded.trace.events.empty()) return {};
    std::vector<int> ranks;
    for (const TraceEvent& e : recorded.trace.events)
        if (ranks.empty() || ranks.back() != e.rank) ranks.push_back(e.rank);
    const PlanCost cost = costPlan(scenario, plan, cluster);
    return rankTimelines(recorded, predictedTrace(plan, cost, ranks));
}

}  // namespace

int checkJobCommand(const std::vector<std::string>& args) {
    ArgParser parser;
    parser.flag("--json").option("--cluster");
    parser.parse(args);
    if (parser.positionals().size() < 2)
        throw UsageError("check-job takes a SCENARIO and at least one DUMP file or folder");
    const std::optional<Scenario> scenario = loadScenario(parser.positionals()[0]);
    if (!scenario) return 2;
    std::optional<Cluster> cluster;
    if (auto name = parser.value("--cluster")) {
        cluster = loadCluster(*name);
        if (!cluster) return 2;
    }
    const std::vector<std::string> dumps(parser.positionals().begin() + 1,
                                         parser.positionals().end());
    const std::optional<JobRecord> job = loadJobRecord(dumps);
    if (!job) return 2;
    if (job->dumps.empty()) {  // nothing recorded: "exactly the plan" would be vacuous
        std::cerr << "hsdp-inspect: check-job: nothing to check: no Flight Recorder dump, and "
                  << job->traceCollectivesSkipped
                  << " Kineto trace collective(s), none naming its process group's ranks and "
                     "sequence id (\"Process Group Ranks\", \"Seq\")\n";
        return 2;
    }
    const Plan plan = planWithStrategies(*scenario, cluster, parser.value("--cluster"));
    const PlannedStep step = plannedStep(stepSchedule(*scenario, plan));
    const JobCheck check = checkJob(step, *scenario, plan, *job);
    const Cluster timesCluster = cluster ? *cluster : defaultStrategyCluster();
    const TimedCollectives timed = timedCollectives(*job, timesCluster);
    const RecordedTimeline recorded =
        recordedTimeline(*scenario, plan, step, check, kTimelineRanks);
    const std::vector<RankTimeline> ranks =
        rankTimelinesBesidePrediction(*scenario, plan, recorded, timesCluster);
    if (parser.has("--json")) {
        auto json = jobCheckToJson(check, step, *scenario, plan);
        json["timings"] = recordedTimesJson(timed, timesCluster.name);
        json["rank_timings"] = rankTimelineJson(ranks);
        std::cout << json.dump(1) << "\n";
    } else {
        std::cout << jobCheckText(check, step, *scenario, plan)
                  << recordedTimesText(timed, timesCluster.name, cluster.has_value())
                  << rankTimelineText(ranks, recorded, check.ranks.size(), timesCluster.name);
    }
    return check.divergences.empty() ? 0 : 1;
}

}  // namespace hsdp::cli
