// SPDX-License-Identifier: Apache-2.0
// A job's record held against its plan (docs/job-records.md, "Checking a job
// against its plan"): a real run's dumps at the plan's real sizes are exactly
// the plan, and each edit a broken job makes to them (a skipped collective,
// other sizes, another dtype, a hang, an extra call, two calls swapped) is
// found as its kind of divergence, on the right rank and seq id, naming the
// params the plan moves there. And the two claims the dumps rest on: the
// schedule sizes each collective as the runtime does, and shrinking keeps
// the step's structure.
#include <QtTest>

#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <fstream>
#include <set>

#include "accuracy/trace_match.h"
#include "cost/plan_scenario.h"
#include "cost/step_schedule.h"
#include "export/flight_recorder_export.h"
#include "job_check/job_check.h"
#include "job_check/job_check_json.h"
#include "job_check/job_check_text.h"
#include "job_check/member_alignment.h"
#include "job_check/planned_step.h"
#include "job_check/recorded_timeline.h"
#include "job_check/run_dump.h"
#include "job_record/job_record_reader.h"
#include "kineto_trace_fixture.h"
#include "run/runner.h"
#include "run/shrink.h"
#include "run_budget.h"
#include "sample_rows.h"
#include "scenario/reader.h"

using namespace hsdp;

namespace {

constexpr int64_t kStartNs = 1733500000000000000;

// A run of a scenario and the dumps it leaves, as run --flight-recorder writes them.
struct RunJob {
    Scenario scenario;
    Plan plan;
    RunResult run;
    PlannedStep step;
    std::vector<FlightRecorderDump> dumps;
};

RunJob runJob(const QString& path, RunOptions options = {}) {
    RunJob job;
    job.scenario = readScenarioFile(path.toStdString());
    job.plan = planScenario(job.scenario);
    job.run = runPlan(job.scenario, job.plan, testing::budgetedRunOptions(options));
    RunDump dump = runDumpAtRealShapes(job.scenario, job.plan, job.run.trace, job.run.paramShapes,
                                       job.run.tpShapes, !job.run.error.empty(), job.run.errorRank);
    FlightRecorderExportOptions exportOptions;
    exportOptions.runStartNs = kStartNs;
    exportOptions.buffers = std::move(dump.buffers);
    exportOptions.pending = std::move(dump.pending);
    job.dumps = runFlightRecorderDumps(dump.trace, job.scenario, job.run.worldSize, exportOptions);
    job.step = plannedStep(stepSchedule(job.scenario, job.plan));
    return job;
}

JobRecord recordOf(const std::vector<FlightRecorderDump>& dumps) {
    JobRecord record;
    for (size_t r = 0; r < dumps.size(); ++r) record.dumps[int64_t(r)] = dumps[r];
    record.worldSize = int64_t(dumps.size());
    return record;
}

// Where an edit goes: rank `rank`'s entries `at` and `at + 1` (dump order),
// adjacent in their group, recorded differently (so a skip or a swap shows).
struct Place {
    int rank = 0;
    size_t at = 0, next = 0;
};

Place placeIn(const std::vector<FlightRecorderDump>& dumps, int rank) {
    const auto& entries = dumps[size_t(rank)].entries;
    for (size_t i = 0; i < entries.size(); ++i)
        for (size_t k = i + 1; k < entries.size(); ++k) {
            if (entries[k].pgName != entries[i].pgName) continue;
            if (!(formOf(entries[k]) == formOf(entries[i]))) return {rank, i, k};
            break;
        }
    qFatal("no two adjacent collectives of one group differ on rank %d", rank);
    return {};
}

// Entry `at` leaves rank's dump: the later ones of its group are numbered
// one lower, as a recorder numbers what the rank really called.
void removeEntry(FlightRecorderDump& dump, size_t at) {
    const std::string group = dump.entries[at].pgName;
    dump.entries.erase(dump.entries.begin() + std::ptrdiff_t(at));
    for (size_t i = at; i < dump.entries.size(); ++i)
        if (dump.entries[i].pgName == group) --dump.entries[i].collectiveSeqId;
}

// The names of the params the plan's collective moves, from the plan itself.
// What a collective carries, from the planner's per-rank figures: a
// gather, its whole batch; an update broadcast, the batch's params its root
// runs Newton–Schulz on; a replica broadcast, those its root owns.
std::vector<std::string> plannedParams(const RunJob& job, int collective) {
    const auto& c = job.step.schedule.collectives[size_t(collective)];
    const ScheduleEntry& entry = job.plan.schedule[size_t(c.scheduleIndex)];
    const bool broadcast =
        c.op == CollectiveOp::Broadcast &&
        (c.phase == StepPhase::UpdateBroadcast || c.phase == StepPhase::ReplicaBroadcast);
    const RankOwnership* root =
        broadcast
            ? &job.plan.ranks[size_t(job.step.schedule.groups[size_t(c.group)][size_t(c.root)])]
            : nullptr;
    std::vector<std::string> names;
    for (const Group& g : job.plan.groups)
        if (g.id == entry.group)
            for (int p : g.batches[size_t(entry.batch)].params) {
                const std::vector<int>* carried = !root ? nullptr
                                                  : c.phase == StepPhase::UpdateBroadcast
                                                      ? &root->computed
                                                      : &root->owned;
                if (!carried || std::binary_search(carried->begin(), carried->end(), p))
                    names.push_back(job.scenario.params[size_t(p)].name);
            }
    return names;
}

std::vector<std::string> expectedParams(const RunJob& job, const JobDivergence& d) {
    return collectiveParams(job.step, job.scenario, job.plan, *d.expected);
}

// A rank's collectives as (op, group, phase, schedule entry, TP transition,
// mesh dim, root), consecutive equal ones (one broadcast's chunks) as one.
std::vector<std::tuple<CollectiveOp, int, StepPhase, int, int, int, int>> chunksAsOne(
    const StepSchedule& s, int rank) {
    std::vector<std::tuple<CollectiveOp, int, StepPhase, int, int, int, int>> out;
    for (const auto& w : s.ranks[size_t(rank)]) {
        if (w.kind != WorkKind::Collective) continue;
        const auto& c = s.collectives[size_t(w.collective)];
        const auto key = std::make_tuple(c.op, c.group, c.phase, c.scheduleIndex, c.tpTransition,
                                         c.meshDim, c.root);
        if (out.empty() || out.back() != key) out.push_back(key);
    }
    return out;
}

QString describe(const RunJob& job, const JobCheck& check) {
    return QString::fromStdString(jobCheckText(check, job.step, job.scenario, job.plan));
}

}  // namespace

class TestJobCheck : public QObject {
    Q_OBJECT
    RunJob clean_;

    JobCheck check(const JobRecord& record) const {
        return checkJob(clean_.step, clean_.scenario, clean_.plan, record);
    }

    // The one divergence an edit makes (it must make exactly one).
    JobDivergence onlyDivergence(const JobCheck& c) const {
        if (c.divergences.size() != 1) qWarning("%s", qPrintable(describe(clean_, c)));
        [&] { QCOMPARE(c.divergences.size(), size_t(1)); }();
        return c.divergences.empty() ? JobDivergence{} : c.divergences[0];
    }

private slots:
    void initTestCase() {
        clean_ = runJob(testing::sample("teaching_2x2.json"));
        QVERIFY2(clean_.run.error.empty(), clean_.run.error.c_str());
    }

    void cleanRunIsExactlyThePlan() {
        const JobRecord record = recordOf(clean_.dumps);
        const JobCheck c = check(record);
        QVERIFY2(c.divergences.empty(), qPrintable(describe(clean_, c)));
        int64_t entries = 0;
        for (const auto& d : clean_.dumps) entries += int64_t(d.entries.size());
        QVERIFY(entries > 4);
        QCOMPARE(c.matched, entries);
        QVERIFY(!c.first);
        QCOMPARE(c.ranks, (std::vector<int64_t>{0, 1, 2, 3}));
        const auto json = jobCheckToJson(c, clean_.step, clean_.scenario, clean_.plan);
        QCOMPARE(json["format"].get<std::string>(), std::string("hsdp-job-check/1"));
        QVERIFY(json["first"].is_null());
    }

    // The recorded timeline of a run's own dumps is the run's trace: rank by
    // rank, each collective at its start (since the earliest), for its
    // duration, as the plan's collective (op, group, phase, params, bytes).
    // Without durations (timing off) nothing is drawn, and said so.
    void recordedTimelineIsTheRunsTrace() {
        const JobRecord record = recordOf(clean_.dumps);
        const JobCheck c = check(record);
        const RecordedTimeline timeline =
            recordedTimeline(clean_.scenario, clean_.plan, clean_.step, c);
        std::map<int, std::vector<const TraceEvent*>> ran, drawn;
        double first = 1e300;
        for (const TraceEvent& e : clean_.run.trace.events)
            if (!isCompute(e)) {
                ran[e.rank].push_back(&e);
                first = std::min(first, e.startUs);
            }
        for (const TraceEvent& e : timeline.trace.events) drawn[e.rank].push_back(&e);
        QCOMPARE(timeline.timed, c.matched);
        QCOMPARE(timeline.untimed, int64_t(0));
        QCOMPARE(timeline.firstStep, int64_t(1));
        QCOMPARE(timeline.lastStep, int64_t(1));
        QCOMPARE(drawn.size(), ran.size());
        for (auto& [rank, events] : ran) {
            std::sort(events.begin(), events.end(),
                      [](auto* a, auto* b) { return a->startUs < b->startUs; });
            QCOMPARE(drawn[rank].size(), events.size());
            for (size_t i = 0; i < events.size(); ++i) {
                const TraceEvent& want = *events[i];
                const TraceEvent& got = *drawn[rank][i];
                QCOMPARE(got.op, want.op);
                QCOMPARE(got.groupRanks, want.groupRanks);
                QCOMPARE(got.label.phase, want.label.phase);
                // The params it carries: a gather per mesh dim moves those of
                // its batch sharded there, drawn as the batch's.
                for (int p : want.label.params)
                    QVERIFY(std::count(got.label.params.begin(), got.label.params.end(), p));
                QCOMPARE(got.bytes, want.bytes);
                QVERIFY(std::abs(got.startUs - (want.startUs - first)) < 0.01);
                QVERIFY(std::abs((got.endUs - got.startUs) - (want.endUs - want.startUs)) < 0.01);
            }
        }
        // A record of many ranks draws some of them (evenly spaced, the first
        // and the last) and still counts every rank's timed entries.
        const RecordedTimeline two =
            recordedTimeline(clean_.scenario, clean_.plan, clean_.step, c, 2);
        QCOMPARE(two.ranksDrawn, int64_t(2));
        QCOMPARE(two.timed, timeline.timed);
        std::set<int> rows;
        for (const TraceEvent& e : two.trace.events) rows.insert(e.rank);
        QCOMPARE(rows, (std::set<int>{0, 3}));
        QCOMPARE(two.trace.events.size(), ran[0].size() + ran[3].size());
        auto untimed = clean_.dumps;
        for (auto& dump : untimed)
            for (auto& e : dump.entries) e.durationMs.reset();
        const JobRecord off = recordOf(untimed);
        const RecordedTimeline none =
            recordedTimeline(clean_.scenario, clean_.plan, clean_.step, check(off));
        QVERIFY(none.trace.events.empty());
        QCOMPARE(none.untimed, c.matched);
    }

    // Every training step after the first numbers on: seq s is the step's
    // collective (s-1) mod L; two steps' records are the plan twice.
    void laterTrainingStepsNumberOn() {
        auto dumps = clean_.dumps;
        for (auto& dump : dumps) {
            std::map<std::string, int64_t> length;
            for (const auto& e : dump.entries) ++length[e.pgName];
            const auto first = dump.entries;
            for (auto e : first) {
                e.collectiveSeqId += length[e.pgName];
                e.timeCreatedNs += 1'000'000'000;
                dump.entries.push_back(e);
            }
        }
        const JobRecord record = recordOf(dumps);
        const JobCheck c = check(record);
        QVERIFY2(c.divergences.empty(), qPrintable(describe(clean_, c)));
        // Drawn, the second step's collectives are others than the first's.
        const RecordedTimeline timeline =
            recordedTimeline(clean_.scenario, clean_.plan, clean_.step, c);
        QCOMPARE(timeline.lastStep, int64_t(2));
        const int64_t collectives = int64_t(clean_.step.schedule.collectives.size());
        for (const TraceEvent& e : timeline.trace.events)
            QCOMPARE(e.seq >= collectives, e.startUs >= 1e6);
        // A ring buffer that kept only the second step is the plan as well.
        for (auto& dump : dumps)
            dump.entries.erase(dump.entries.begin(),
                               dump.entries.begin() + std::ptrdiff_t(dump.entries.size() / 2));
        const JobRecord second = recordOf(dumps);
        QVERIFY2(check(second).divergences.empty(), qPrintable(describe(clean_, check(second))));
    }

    // The world group's barriers are the job's own, outside the step; a
    // group the plan does not have holds only unexpected collectives.
    void worldBarriersAsideOtherGroupsUnexpected() {
        auto dumps = clean_.dumps;
        FlightRecorderEntry barrier = dumps[0].entries.front();
        barrier.pgName = "0";
        barrier.profilingName = "nccl:all_reduce";
        barrier.inputSizes = barrier.outputSizes = {{1}};
        barrier.inputDtypes = barrier.outputDtypes = {"Float"};
        barrier.collectiveSeqId = 1;
        for (auto& dump : dumps) dump.entries.push_back(barrier);
        const JobRecord withBarriers = recordOf(dumps);
        const JobCheck c = check(withBarriers);
        QVERIFY2(c.divergences.empty(), qPrintable(describe(clean_, c)));
        QCOMPARE(c.ignored, int64_t(dumps.size()));

        dumps[1].groups.push_back({"99", "mesh_odd", {1, 2}});
        FlightRecorderEntry odd = dumps[1].entries.front();
        odd.pgName = "99";
        odd.collectiveSeqId = 1;
        dumps[1].entries.push_back(odd);
        const JobRecord withOdd = recordOf(dumps);
        const JobDivergence d = onlyDivergence(check(withOdd));
        QCOMPARE(d.kind, DivergenceKind::Unexpected);
        QCOMPARE(d.rank, int64_t(1));
        QCOMPARE(d.groupRanks, (std::vector<int64_t>{1, 2}));
    }

    // A job profiled but not dumped: each rank's Kineto trace, read as the
    // dump it implies, is checked as the dumps are. The run's collectives
    // as the profiler records them are exactly the plan; a trace one
    // collective short is that collective missing on that rank.
    void kinetoTracesAreCheckedAsDumps() {
        auto traced = [&](const std::vector<FlightRecorderDump>& dumps, QTemporaryDir& dir) {
            for (size_t r = 0; r < dumps.size(); ++r)
                std::ofstream(dir.filePath(QString("rank%1.pt.trace.json").arg(r)).toStdString())
                    << testing::kinetoTraceOf(dumps[r], int(r), int(dumps.size())).dump();
            return readJobRecord({dir.path().toStdString()});
        };
        QTemporaryDir dir;
        const JobRecord record = traced(clean_.dumps, dir);
        QCOMPARE(record.ranksFromTrace, (std::vector<int64_t>{0, 1, 2, 3}));
        QVERIFY(record.ranksWithoutDump.empty());
        const JobCheck c = check(record);
        QVERIFY2(c.divergences.empty(), qPrintable(describe(clean_, c)));
        int64_t entries = 0;
        for (const auto& d : clean_.dumps) entries += int64_t(d.entries.size());
        QCOMPARE(c.matched, entries);
        QVERIFY2(describe(clean_, c).contains("4 ranks' dumps (all read off their Kineto traces)"),
                 qPrintable(describe(clean_, c)));
        // What a trace cannot show is said: a hang is a missing event, not a stuck one.
        QVERIFY2(describe(clean_, c).contains("one a rank hung in is missing from it rather "
                                              "than stuck"),
                 qPrintable(describe(clean_, c)));
        QVERIFY(!describe(clean_, check(recordOf(clean_.dumps))).contains("Kineto"));

        auto dumps = clean_.dumps;
        const Place place = placeIn(dumps, 1);
        const int64_t seq = dumps[1].entries[place.at].collectiveSeqId;
        removeEntry(dumps[1], place.at);
        QTemporaryDir shortDir;
        const JobDivergence d = onlyDivergence(check(traced(dumps, shortDir)));
        QCOMPARE(d.kind, DivergenceKind::Missing);
        QCOMPARE(d.rank, int64_t(1));
        QCOMPARE(d.seqId, seq);
    }

    void skippedCollectiveIsMissing() {
        auto dumps = clean_.dumps;
        const Place place = placeIn(dumps, 1);
        const int64_t seq = dumps[1].entries[place.at].collectiveSeqId;
        removeEntry(dumps[1], place.at);
        const JobRecord record = recordOf(dumps);
        const JobCheck c = check(record);
        const JobDivergence d = onlyDivergence(c);
        QCOMPARE(d.kind, DivergenceKind::Missing);
        QCOMPARE(d.rank, int64_t(1));
        QCOMPARE(d.seqId, seq);
        QVERIFY(d.recorded == nullptr);
        QVERIFY(!d.peers.empty());
        QCOMPARE(expectedParams(clean_, d), plannedParams(clean_, *d.expected));
        QVERIFY(!expectedParams(clean_, d).empty());
        QCOMPARE(*c.first, size_t(0));
        const QString text = describe(clean_, c);
        QVERIFY2(
            text.contains("rank 1 never recorded") && text.contains("#" + QString::number(seq)),
            qPrintable(text));
    }

    void otherSizesAreSize() {
        auto dumps = clean_.dumps;
        auto& e = dumps[2].entries[placeIn(dumps, 2).next];
        e.inputSizes[0][0] += 1;
        const JobRecord record = recordOf(dumps);
        const JobDivergence d = onlyDivergence(check(record));
        QCOMPARE(d.kind, DivergenceKind::Size);
        QCOMPARE(d.rank, int64_t(2));
        QCOMPARE(d.seqId, e.collectiveSeqId);
        QCOMPARE(expectedParams(clean_, d), plannedParams(clean_, *d.expected));
    }

    void anotherDtypeIsDtype() {
        auto dumps = clean_.dumps;
        auto& e = dumps[0].entries[placeIn(dumps, 0).at];
        const std::string other = e.inputDtypes[0] == "Double" ? "Float" : "Double";
        e.inputDtypes = e.outputDtypes = {other};
        const JobRecord record = recordOf(dumps);
        const JobDivergence d = onlyDivergence(check(record));
        QCOMPARE(d.kind, DivergenceKind::Dtype);
        QCOMPARE(d.rank, int64_t(0));
        QCOMPARE(d.seqId, e.collectiveSeqId);
        QCOMPARE(expectedParams(clean_, d), plannedParams(clean_, *d.expected));
    }

    void extraCollectiveIsUnexpected() {
        auto dumps = clean_.dumps;
        const Place place = placeIn(dumps, 3);
        auto& entries = dumps[3].entries;
        FlightRecorderEntry extra = entries[place.at];
        extra.profilingName = "nccl:all_reduce";
        extra.inputSizes = extra.outputSizes = {{7}};
        extra.inputDtypes = extra.outputDtypes = {"Float"};
        extra.collectiveSeqId += 1;
        for (auto& e : entries)
            if (e.pgName == extra.pgName && e.collectiveSeqId >= extra.collectiveSeqId)
                ++e.collectiveSeqId;
        entries.insert(entries.begin() + std::ptrdiff_t(place.at + 1), extra);
        const JobRecord record = recordOf(dumps);
        const JobDivergence d = onlyDivergence(check(record));
        QCOMPARE(d.kind, DivergenceKind::Unexpected);
        QCOMPARE(d.rank, int64_t(3));
        QCOMPARE(d.seqId, extra.collectiveSeqId);
        QVERIFY(!d.expected);
        QCOMPARE(d.recorded->profilingName, std::string("nccl:all_reduce"));
    }

    void swappedCollectivesAreOrder() {
        auto dumps = clean_.dumps;
        const Place place = placeIn(dumps, 1);
        auto& entries = dumps[1].entries;
        const int64_t seq = entries[place.at].collectiveSeqId;
        std::swap(entries[place.at], entries[place.next]);
        std::swap(entries[place.at].collectiveSeqId, entries[place.next].collectiveSeqId);
        const JobRecord record = recordOf(dumps);
        const JobCheck c = check(record);
        const JobDivergence d = onlyDivergence(c);
        QCOMPARE(d.kind, DivergenceKind::Order);  // not two size mismatches
        QCOMPARE(d.rank, int64_t(1));
        QCOMPARE(d.seqId, seq);
        QVERIFY(d.expectedSecond);
        QCOMPARE(expectedParams(clean_, d), plannedParams(clean_, *d.expected));
        QCOMPARE(*c.first, size_t(0));
    }

    // A run whose rank 2 fails at its third collective: rank 2 never
    // recorded it, its peers started it and hang there; that is the one to
    // look at first. Then rank 2 hangs in it instead, its peers having
    // completed it: stuck, naming them.
    void hangMidStepIsStuckAndMissing() {
        RunOptions options;
        options.fault = FaultSpec{2, 3};
        options.timeout = std::chrono::milliseconds(30000);
        RunJob failed = runJob(testing::sample("teaching_2x2.json"), options);
        QVERIFY(!failed.run.error.empty());
        QCOMPARE(failed.run.errorRank, 2);
        auto& rank2 = failed.dumps[2].entries;
        QCOMPARE(rank2.size(), size_t(2));
        const JobRecord record = recordOf(failed.dumps);
        const JobCheck c = checkJob(failed.step, failed.scenario, failed.plan, record);
        QVERIFY(c.first);
        const JobDivergence& first = c.divergences[*c.first];
        QCOMPARE(first.kind, DivergenceKind::Missing);
        QCOMPARE(first.rank, int64_t(2));
        QVERIFY(!first.peers.empty());
        bool peersStuck = false;
        for (const auto& d : c.divergences)
            peersStuck |= d.kind == DivergenceKind::Stuck && d.seqId == first.seqId &&
                          d.groupRanks == first.groupRanks;
        QVERIFY2(peersStuck, qPrintable(describe(failed, c)));
        // The one to look at first is where rank 2 failed, its third collective,
        // not a later one it never reached either.
        std::vector<int> program;
        for (const RankWork& w : failed.step.schedule.ranks[2])
            if (w.kind == WorkKind::Collective) program.push_back(w.collective);
        QCOMPARE(first.expected.value_or(-1), program.at(2));
        // Whichever peer races ahead: with the peers that recorded it a second
        // late, a later collective's absence (when a peer recorded one before
        // the abort stopped it) is dated earlier, and the first is still rank
        // 2's third.
        {
            auto late = failed.dumps;
            for (int64_t peer : first.peers)
                for (auto& e : late[size_t(peer)].entries) e.timeCreatedNs += 1'000'000'000;
            const JobRecord raced = recordOf(late);
            const JobCheck r = checkJob(failed.step, failed.scenario, failed.plan, raced);
            QVERIFY(r.first);
            QCOMPARE(r.divergences[*r.first].rank, int64_t(2));
            QCOMPARE(r.divergences[*r.first].expected.value_or(-1), program.at(2));
        }

        // Rank 2 entered it and hung; its peers completed it.
        auto dumps = failed.dumps;
        const auto& group = first.groupRanks;
        FlightRecorderEntry* peerEntry = nullptr;
        for (int64_t peer : first.peers)
            for (auto& e : dumps[size_t(peer)].entries)
                if (e.collectiveSeqId == first.seqId && e.state != CollectiveState::Completed) {
                    e.state = CollectiveState::Completed;
                    e.timeDiscoveredCompletedNs = e.timeCreatedNs + 1000;
                    peerEntry = &e;
                }
        QVERIFY(peerEntry);
        FlightRecorderEntry hung = *peerEntry;
        hung.state = CollectiveState::Started;
        hung.timeDiscoveredCompletedNs.reset();
        hung.recordId = int64_t(dumps[2].entries.size());
        dumps[2].entries.push_back(hung);
        const JobRecord hungRecord = recordOf(dumps);
        const JobCheck h = checkJob(failed.step, failed.scenario, failed.plan, hungRecord);
        const JobDivergence* stuck = nullptr;
        for (const auto& d : h.divergences)
            if (d.kind == DivergenceKind::Stuck && d.rank == 2) stuck = &d;
        QVERIFY2(stuck, qPrintable(describe(failed, h)));
        QCOMPARE(stuck->seqId, first.seqId);
        // The recorded timeline draws what never completed, open to the
        // dumps' newest time: a hang's whole story (it was left out).
        const RecordedTimeline hangs =
            recordedTimeline(failed.scenario, failed.plan, failed.step, h);
        int64_t notCompleted = 0;
        for (const PlacedEntry& placed : h.placed)
            notCompleted += placed.entry->state != CollectiveState::Completed;
        QVERIFY(notCompleted > 0);
        QCOMPARE(hangs.open, notCompleted);
        QCOMPARE(int64_t(hangs.trace.events.size()), hangs.timed + hangs.open);
        // The hung ones have a phase of their own (their own colour), the rest theirs.
        int64_t neverCompleted = 0;
        double earliest = 1e300, openEnd = 0;
        for (const TraceEvent& e : hangs.trace.events) {
            neverCompleted += e.label.phase == kNeverCompletedPhase;
            earliest = std::min(earliest, e.startUs);
            openEnd = std::max(openEnd, e.endUs);
        }
        QCOMPARE(neverCompleted, hangs.open);
        // Each has a width to see, even one enqueued at the newest time (the
        // peer waiting on rank 2 was drawn as a zero-width bar, as if healthy).
        for (const TraceEvent& e : hangs.trace.events)
            if (e.label.phase == kNeverCompletedPhase)
                QVERIFY2(
                    e.endUs - e.startUs >= 0.01 * (openEnd - earliest),
                    qPrintable(
                        QStringLiteral("rank %1: %2 µs").arg(e.rank).arg(e.endUs - e.startUs)));
        double latest = 0;
        for (const TraceEvent& e : hangs.trace.events) latest = std::max(latest, e.endUs);
        int atTheEnd = 0;
        for (const TraceEvent& e : hangs.trace.events) atTheEnd += e.endUs == latest;
        QVERIFY(atTheEnd >= notCompleted);
        std::vector<int64_t> others;
        for (int64_t r : group)
            if (r != 2) others.push_back(r);
        QCOMPARE(stuck->peers, others);
        QCOMPARE(expectedParams(failed, *stuck), plannedParams(failed, *stuck->expected));
        const QString text = QString::fromStdString(
            divergenceSentence(*stuck, h, failed.step, failed.scenario, failed.plan));
        QVERIFY2(text.startsWith("rank 2 never completed") && text.contains("completed it"),
                 qPrintable(text));
        // Its age is to the dumps' newest time, which holds no time of the
        // dump's writing: an entry that is itself the newest says so.
        JobCheck aged = h;
        aged.nowNs = stuck->timeNs + 2'000'000'000;
        const QString old = QString::fromStdString(
            divergenceSentence(*stuck, aged, failed.step, failed.scenario, failed.plan));
        QVERIFY2(old.contains(", started 2") && old.contains(" s before the dumps' newest time;"),
                 qPrintable(old));
        // A loopback job's microseconds are an age too, not "at the newest time".
        aged.nowNs = stuck->timeNs + 79'000;
        const QString recent = QString::fromStdString(
            divergenceSentence(*stuck, aged, failed.step, failed.scenario, failed.plan));
        QVERIFY2(recent.contains(", started 79.0 µs before the dumps' newest time;"),
                 qPrintable(recent));
        aged.nowNs = stuck->timeNs;
        const QString newest = QString::fromStdString(
            divergenceSentence(*stuck, aged, failed.step, failed.scenario, failed.plan));
        QVERIFY2(newest.contains("started at the dumps' newest time (how long it waited is not "
                                 "recorded);"),
                 qPrintable(newest));
    }

    // What the dumps rest on, scenario by scenario: at the run's own
    // (shrunk) shapes the schedule sizes each collective as the runtime
    // handed it to the trace, and at the real shapes the step makes the same
    // collectives in the same order.
    void scheduleSizesCollectivesAsTheRunDid_data() {
        QTest::addColumn<QString>("path");
        // The all-to-all gather strategy's uneven exchange too.
        const QStringList paths = testing::scenarioPaths()
                                  << testing::sample("diff/llama3_8b_all_to_all.json");
        for (const QString& path : paths) {
            // Under the sanitizers only the small ones run for real.
            const bool small = path.contains("teaching") || path.contains("tests/data/examples");
            if (testing::runBudgetDivisor() == 1 || small)
                QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
        }
    }

    void scheduleSizesCollectivesAsTheRunDid() {
        QFETCH(QString, path);
        const RunJob job = runJob(path);
        QVERIFY2(job.run.error.empty(), job.run.error.c_str());
        const StepSchedule run =
            stepSchedule(job.scenario, job.plan, job.run.paramShapes, job.run.tpShapes);
        const ScheduleTraceMatch match = matchScheduleToTrace(run, job.run.trace);
        QVERIFY(match.matches());
        for (const auto& pair : match.pairs) {
            const TraceEvent& e = job.run.trace.events[pair.event];
            const CollectiveBuffers b =
                scheduledBuffers(job.scenario, job.plan, run, pair.collective, pair.rank);
            QCOMPARE(b.op, e.op);
            QCOMPARE(b.inputBytes, e.inputBytes);
            QCOMPARE(b.outputBytes, e.outputBytes);
            QCOMPARE(b.reduction, e.dtype);
        }
        const JobRecord record = recordOf(job.dumps);
        const JobCheck c = checkJob(job.step, job.scenario, job.plan, record);
        QVERIFY2(c.divergences.empty(), qPrintable(describe(job, c)));
        int64_t entries = 0;
        for (const auto& d : job.dumps) entries += int64_t(d.entries.size());
        QCOMPARE(c.matched, entries);
        QVERIFY(entries >= job.run.rankEvents);  // more where broadcasts are cut in more chunks
    }

    void shrinkingKeepsTheStructure_data() {
        QTest::addColumn<QString>("path");
        for (const QString& path : testing::scenarioPaths())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }

    // Shrinking keeps the step's structure but for the chunks of
    // broadcast_max_bytes: every rank makes the same collectives in the same
    // groups in the same order once the chunks of one broadcast count as one,
    // and only broadcasts differ in their count.
    void shrinkingKeepsTheStructure() {
        QFETCH(QString, path);
        const Scenario scenario = readScenarioFile(path.toStdString());
        const Plan plan = planScenario(scenario);
        const RunOptions options = testing::budgetedRunOptions();
        const ShrinkDecision shrunk =
            decideShrink(scenario, plan, options.maxBytes, options.flopBudget);
        const StepSchedule small =
            stepSchedule(scenario, plan, shrunk.paramShapes, shrunk.tpShapes);
        const StepSchedule real = stepSchedule(scenario, plan);
        QCOMPARE(small.groups, real.groups);
        for (size_t r = 0; r < real.ranks.size(); ++r) {
            const auto a = chunksAsOne(small, int(r)), b = chunksAsOne(real, int(r));
            QVERIFY2(a == b, qPrintable(QString("rank %1").arg(r)));
        }
        std::map<CollectiveOp, int> smallOps, realOps;
        for (const auto& c : small.collectives) ++smallOps[c.op];
        for (const auto& c : real.collectives) ++realOps[c.op];
        for (const auto& [op, n] : realOps)
            if (op != CollectiveOp::Broadcast) QCOMPARE(smallOps[op], n);
    }

    // The claim above proves something: most scenarios do shrink.
    void someScenarioShrinks() {
        int shrunk = 0;
        for (const QString& path : testing::scenarioPaths()) {
            const Scenario scenario = readScenarioFile(path.toStdString());
            const Plan plan = planScenario(scenario);
            const RunOptions options = testing::budgetedRunOptions();
            shrunk +=
                decideShrink(scenario, plan, options.maxBytes, options.flopBudget).info.has_value();
        }
        QVERIFY(shrunk >= 2);
    }

    void sentencesReadAsDocumented() {
        QCOMPARE(rankRanges({16, 18, 19, 20, 21}), std::string("16, 18–21"));
        QCOMPARE(rankRanges({16, 17, 18}, ".."), std::string("16..18"));
        QCOMPARE(rankRanges({1, 5}), std::string("1, 5"));
        QCOMPARE(paramsSummary({"layers.12.mlp.w1", "layers.12.mlp.w2"}),
                 std::string("layers.12.mlp.*"));
        QCOMPARE(paramsSummary({"a", "b", "c", "d"}), std::string("a, b and 2 more"));
        QCOMPARE(paramsSummary({"w"}), std::string("w"));
    }
};

QTEST_GUILESS_MAIN(TestJobCheck)
#include "tst_job_check.moc"
