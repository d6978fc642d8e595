// SPDX-License-Identifier: Apache-2.0
#include "derived/job/job_data.h"

#include <QCoreApplication>
#include <algorithm>
#include <tuple>

#include "cost/step_schedule.h"
#include "derived/plan/plan_index.h"
#include "derived/run/plan_prediction.h"
#include "derived/run/trace_timeline.h"
#include "job_check/job_check.h"
#include "job_check/job_check_text.h"
#include "job_check/planned_step.h"
#include "job_check/recorded_timeline.h"
#include "job_record/job_record_reader.h"
#include "types/collective_op.h"

namespace hsdp {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("JobData", text);
}

std::vector<int64_t> sorted(std::vector<int64_t> ranks) {
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

// "[2, 3] mesh_dp_shard": the members as check-job's sentences write them.
QString groupText(const std::vector<int64_t>& ranks, const std::string& desc) {
    QString text =
        QStringLiteral("[%1]").arg(QString::fromStdString(rankRanges(ranks, std::string("–"))));
    if (!desc.empty()) text += QLatin1Char(' ') + QString::fromStdString(desc);
    return text;
}

const PlannedGroup* plannedGroupOf(const PlannedStep& step, const std::vector<int64_t>& ranks) {
    for (const PlannedGroup& group : step.groups)
        if (group.ranks == ranks) return &group;
    return nullptr;
}

JobDivergenceRow rowOf(const JobDivergence& d, const JobCheck& check, const PlannedStep& step,
                       const PlanResult& plan) {
    JobDivergenceRow row;
    row.kind = int(d.kind);
    row.kindName = QString::fromLatin1(divergenceKindName(d.kind));
    row.rank = d.rank;
    row.groupRanks = sorted(d.groupRanks);
    row.groupText = groupText(row.groupRanks, d.groupDesc);
    row.seqId = d.seqId;
    row.trainingStep = d.trainingStep;
    row.sentence =
        QString::fromStdString(divergenceSentence(d, check, step, *plan.scenario, *plan.plan));
    if (!d.expected) return row;
    row.expected = *d.expected;
    const ScheduledCollective& c = step.schedule.collectives.at(size_t(*d.expected));
    if (c.tpTransition >= 0) {
        row.transition = c.tpTransition;
        return row;
    }
    // The params the collective carried, as its sentence names them (an
    // owner's update broadcast carries one of its batch's): selecting the
    // whole batch focused its first param, another than the sentence's.
    row.params = carriedParams(*plan.scenario, *plan.plan, step.schedule, *d.expected);
    if (row.params.empty()) row.params = entryParams(*plan.plan, c.scheduleIndex);
    row.group = c.planGroup;
    row.batch = c.batch;
    if ((row.group < 0 || row.batch < 0) && !row.params.empty()) {
        const ParamPlace& place = plan.index->params.at(size_t(row.params.front()));
        row.group = place.group;
        row.batch = place.batch;
    }
    return row;
}

void addRecordedTimeline(JobData& job) {
    // As many rows as a predicted timeline keeps: a record of thousands of
    // ranks would copy every event's group and params.
    RecordedTimeline timeline = recordedTimeline(*job.plan.scenario, *job.plan.plan, *job.step,
                                                 *job.check, size_t(kPredictedTraceRanks));
    job.timedEntries = timeline.timed;
    job.untimedEntries = timeline.untimed;
    job.firstStep = timeline.firstStep;
    job.lastStep = timeline.lastStep;
    job.recordedRanksDrawn = timeline.ranksDrawn;
    job.openEntries = timeline.open;
    // Open entries alone have no time axis to stand on: a shrunk run's
    // dumps (no durations) drew its hung collectives at the step's start,
    // above the predicted gathers, and the culprit's row empty.
    if (timeline.timed == 0) return;
    auto run = std::make_shared<RunResult>();
    run->worldSize = job.plan.plan->worldSize;
    run->stepSeconds = timeline.spanSeconds;
    run->trace = std::move(timeline.trace);
    // The first divergence's rank is marked where its record stops, as a
    // failed run's rank is (its row just ended, with no mark).
    if (job.check->first) {
        const JobDivergence& first = job.check->divergences.at(*job.check->first);
        run->error =
            "the job's first divergence: " +
            divergenceSentence(first, *job.check, *job.step, *job.plan.scenario, *job.plan.plan);
        run->errorRank = int(first.rank);
    }
    job.recordedRun = run;
    job.recordedRows = timelineOfRun(RunData{job.plan, job.recordedRun});
}

JobData checked(const PlanResult& plan, const QStringList& paths,
                std::shared_ptr<const JobRecord> record, bool opened) {
    JobData job;
    job.plan = plan;
    job.paths = paths;
    job.record = std::move(record);
    job.opened = opened;
    auto step =
        std::make_shared<const PlannedStep>(plannedStep(stepSchedule(*plan.scenario, *plan.plan)));
    auto check =
        std::make_shared<const JobCheck>(checkJob(*step, *plan.scenario, *plan.plan, *job.record));
    job.step = step;
    job.check = check;
    job.ranks = int64_t(check->ranks.size());
    job.matched = check->matched;
    for (const auto& [rank, dump] : job.record->dumps) job.recorded += int64_t(dump.entries.size());
    addRecordedTimeline(job);

    if (check->first)
        job.rows.push_back(rowOf(check->divergences[*check->first], *check, *step, plan));
    for (size_t i = 0; i < check->divergences.size(); ++i)
        if (!check->first || i != *check->first)
            job.rows.push_back(rowOf(check->divergences[i], *check, *step, plan));
    if (!job.rows.empty()) job.rows.front().first = true;

    for (const ProcessGroupRecord& group : processGroupRecords(*job.record)) {
        const std::vector<int64_t> members = sorted(group.ranks);
        const PlannedGroup* planned = plannedGroupOf(*step, members);
        for (size_t pos = 0; pos < members.size(); ++pos) {
            JobCell cell;
            cell.groupRanks = members;
            cell.groupText = groupText(members, group.desc);
            cell.rank = members[pos];
            if (auto it = group.entriesByRank.find(cell.rank); it != group.entriesByRank.end())
                cell.recorded = int64_t(it->second.size());
            if (planned) cell.planned = int64_t(planned->programs.at(pos).size());
            for (const JobDivergence& d : check->divergences)
                if (d.rank == cell.rank && sorted(d.groupRanks) == members) {
                    if (cell.divergences++ == 0) cell.firstKind = int(d.kind);
                }
            if (cell.recorded > 0 || cell.planned > 0 || cell.divergences > 0)
                job.cells.push_back(std::move(cell));
        }
    }
    return job;
}

}  // namespace

QString JobData::summary() const {
    if (!isValid()) return {};
    const auto plural = [](int64_t n, const char* one, const char* many) {
        return QStringLiteral("%L1 %2").arg(n).arg(tr(n == 1 ? one : many));
    };
    QString text = plural(ranks, "rank", "ranks") + QStringLiteral(", ") +
                   plural(recorded, "per-rank entry recorded", "per-rank entries recorded") +
                   QStringLiteral(", ") + tr("%L1 matched").arg(matched) + QStringLiteral(", ") +
                   plural(int64_t(rows.size()), "divergence", "divergences");
    if (rows.empty())
        text += tr("; every recorded collective as planned");
    else
        text += tr("; first: %1").arg(rows.front().sentence);
    if (!record->ranksWithoutDump.empty())
        text += tr(" · no dump from rank(s) %1")
                    .arg(QString::fromStdString(rankRanges(record->ranksWithoutDump)));
    return text;
}

JobData computeJobData(const PlanResult& plan, const QStringList& paths, std::stop_token stop) {
    std::vector<std::string> files;
    for (const QString& path : paths) files.push_back(path.toStdString());
    auto record = std::make_shared<const JobRecord>(readJobRecord(files, stop));
    return checked(plan, paths, std::move(record), true);
}

JobData recheckJobData(const JobData& job, const PlanResult& plan) {
    return checked(plan, job.paths, job.record, false);
}

int64_t runSeqOfDivergence(const JobData& job, size_t row, const RunData& run, QString* why) {
    const auto fail = [why](const QString& reason) {
        if (why) *why = reason;
        return int64_t(-1);
    };
    if (!job.isValid() || row >= job.rows.size()) return fail(tr("No divergence is selected."));
    const JobDivergenceRow& d = job.rows[row];
    if (d.expected < 0)
        return fail(
            tr("This collective has no place in the plan's step, so no step of a run "
               "matches it."));
    if (!run.isValid())
        return fail(
            tr("No run is loaded: Run ▸ Run (Ctrl+R) or File ▸ Open Run… shows the "
               "plan's steps, and activating the divergence again goes to its step."));
    if (run.plan.plan != job.plan.plan)
        return fail(
            tr("The run on screen is of an earlier plan: run this plan to step to the "
               "divergence."));
    const auto& collectives = job.step->schedule.collectives;
    const ScheduledCollective& c = collectives.at(size_t(d.expected));
    const auto keyOf = [](const ScheduledCollective& s) {
        return std::make_tuple(s.op, s.scheduleIndex, s.tpTransition, s.planGroup, s.batch);
    };
    // Which occurrence of its kind on the rank (a fused broadcast's chunks
    // are alike): the run's shrunk step may cut fewer chunks, so the last
    // one stands for the rest.
    size_t occurrence = 0;
    if (const PlannedGroup* group = plannedGroupOf(*job.step, d.groupRanks)) {
        const auto at = std::find(group->ranks.begin(), group->ranks.end(), d.rank);
        if (at != group->ranks.end())
            for (int each : group->programs.at(size_t(at - group->ranks.begin()))) {
                if (each == d.expected) break;
                if (keyOf(collectives.at(size_t(each))) == keyOf(c)) ++occurrence;
            }
    }
    const std::string op(traceNameOf(c.op));
    const auto matches = [&](const TraceEvent& e) {
        if (e.op != op || e.label.scheduleIndex != c.scheduleIndex ||
            e.label.tpTransition != c.tpTransition || e.label.group != c.planGroup ||
            e.label.batch != c.batch || e.groupRanks.size() != d.groupRanks.size())
            return false;
        std::vector<int64_t> members(e.groupRanks.begin(), e.groupRanks.end());
        return sorted(std::move(members)) == d.groupRanks;
    };
    // The rank's own event, else (it never made it: a missing or failed
    // collective) the same collective on a peer.
    std::vector<int64_t> ranks{d.rank};
    for (int64_t member : d.groupRanks)
        if (member != d.rank) ranks.push_back(member);
    for (int64_t rank : ranks) {
        std::vector<int64_t> seqs;
        for (const TraceEvent& e : run.run->trace.events)
            if (e.rank == rank && matches(e)) seqs.push_back(e.seq);
        if (!seqs.empty()) return seqs[std::min(occurrence, seqs.size() - 1)];
    }
    return fail(
        tr("The run on screen never made this collective (a failed or cancelled run "
           "stops early)."));
}

}  // namespace hsdp
