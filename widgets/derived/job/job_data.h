// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <vector>

#include "derived/plan/plan_result.h"
#include "derived/run/run_data.h"

namespace hsdp {

struct JobCheck;
struct JobRecord;
struct PlannedStep;
class TraceTimeline;

// One divergence of a job's record from its plan, as the Job view lists it
// (job_check/job_check.h's JobDivergence, said and placed in the plan).
struct JobDivergenceRow {
    int kind = 0;                     // DivergenceKind
    QString kindName;                 // "missing", "size", ...
    int64_t rank = 0;                 // the global rank it happened on
    std::vector<int64_t> groupRanks;  // the process group's members, ascending
    QString groupText;                // "[2, 3] mesh_dp_shard"
    int64_t seqId = 0;                // collective_seq_id
    int64_t trainingStep = 1;
    QString sentence;    // check-job's sentence
    bool first = false;  // the one to look at first
    int expected = -1;   // the plan's collective there (StepSchedule::collectives), or -1
    // What selecting it selects, positions of JobData::plan.
    std::vector<int> params;
    int group = -1;
    int batch = -1;
    int transition = -1;
};

// Per recorded process group and member rank: its collectives against the plan's.
struct JobCell {
    std::vector<int64_t> groupRanks;  // ascending
    QString groupText;
    int64_t rank = 0;
    int64_t recorded = 0;  // entries in the rank's dump for this group
    int64_t planned = 0;   // the plan's collectives per step for this rank here (0: no such group)
    int64_t divergences = 0;  // listed for this rank and group
    int firstKind = -1;       // the kind of its first divergence, or -1
};

// A job's record (Flight Recorder dumps) checked against the plan on screen,
// built off the GUI thread (computeJobData) and shared read-only.
struct JobData {
    PlanResult plan;    // the plan it was checked against
    QStringList paths;  // what was read (files or folders)
    std::shared_ptr<const JobRecord> record;
    std::shared_ptr<const PlannedStep> step;
    std::shared_ptr<const JobCheck> check;
    std::vector<JobDivergenceRow> rows;  // the first divergence first, then the job's order
    std::vector<JobCell> cells;          // by group (its members), then rank
    int64_t ranks = 0;                   // ranks whose dumps were read
    int64_t recorded = 0;                // entries in every dump
    int64_t matched = 0;
    bool opened = false;  // freshly opened (not a re-check of the same record on a new plan)
    // The record's timed collectives drawn as a run's trace
    // (job_check/recorded_timeline.h), and indexed for the canvas; null when
    // no placed entry has a duration (Flight Recorder with timing off).
    std::shared_ptr<const RunResult> recordedRun;
    std::shared_ptr<const TraceTimeline> recordedRows;
    int64_t timedEntries = 0;             // placed entries drawn
    int64_t untimedEntries = 0;           // completed placed entries without a duration
    int64_t openEntries = 0;              // never completed: drawn open to the record's end
    int64_t firstStep = 0, lastStep = 0;  // the training steps drawn
    int64_t recordedRanksDrawn = 0;       // rows of the recorded timeline (at most 64)

    bool isValid() const { return plan.isValid() && record && check; }
    // "4 ranks, 6 collectives recorded, 5 matched, 1 divergence; first: ..."
    QString summary() const;
};

// Reads `paths` (JobRecordError on a record that does not read) and checks
// it against `plan`. Runs on any thread; a stop requested on `stop` ends it
// between files (a JobRecordError).
JobData computeJobData(const PlanResult& plan, const QStringList& paths, std::stop_token stop = {});
// The same record checked again against another plan of its scenario.
JobData recheckJobData(const JobData& job, const PlanResult& plan);

// The run's collective (its seq, TraceEvent::seq) where divergence `row`
// happened, for the Steps view; -1 with `why` saying why there is none.
int64_t runSeqOfDivergence(const JobData& job, size_t row, const RunData& run, QString* why);

}  // namespace hsdp

Q_DECLARE_METATYPE(hsdp::JobData)
