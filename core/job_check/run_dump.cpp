// SPDX-License-Identifier: Apache-2.0
#include "job_check/run_dump.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "accuracy/trace_match.h"
#include "cost/step_schedule.h"
#include "job_check/planned_step.h"

namespace hsdp {

namespace {

// What a collective is, sizes and chunking aside: the same at any shapes.
using CollectiveKey = std::tuple<CollectiveOp, int, int, StepPhase, int, int, int>;

CollectiveKey keyOf(const ScheduledCollective& c) {
    return {c.op, c.group, c.root, c.phase, c.scheduleIndex, c.tpTransition, c.meshDim};
}

// One rank's collectives (indices into StepSchedule::collectives), in order.
std::vector<int> collectivesOf(const StepSchedule& s, int rank) {
    std::vector<int> out;
    for (const RankWork& w : s.ranks[size_t(rank)])
        if (w.kind == WorkKind::Collective) out.push_back(w.collective);
    return out;
}

// The mesh a collective's group lies on, as the trace labels it.
std::string meshOf(const Scenario& scenario, const Plan& plan, const ScheduledCollective& c) {
    if (c.phase == StepPhase::Tp && c.tpTransition >= 0 &&
        size_t(c.tpTransition) < scenario.tpTransitions.size())
        return scenario.tpTransitions[size_t(c.tpTransition)].mesh;
    if (c.scheduleIndex < 0 || size_t(c.scheduleIndex) >= plan.schedule.size()) return "";
    for (const Group& g : plan.groups)
        if (g.id == plan.schedule[size_t(c.scheduleIndex)].group) return g.mesh;
    return "";
}

// One rank's run collectives by key: the traced event of each occurrence
// (nullptr where the run never completed it).
using RunOccurrences = std::map<CollectiveKey, std::vector<const TraceEvent*>>;

RunOccurrences runOccurrences(const StepSchedule& run, const Trace& trace,
                              const ScheduleTraceMatch& match, int rank) {
    std::map<int, const TraceEvent*> eventOf;  // work index -> event
    for (const auto& p : match.pairs)
        if (p.rank == rank) eventOf[p.work] = &trace.events[p.event];
    RunOccurrences out;
    const auto& works = run.ranks[size_t(rank)];
    for (size_t w = 0; w < works.size(); ++w) {
        if (works[w].kind != WorkKind::Collective) continue;
        const auto found = eventOf.find(int(w));
        out[keyOf(run.collectives[size_t(works[w].collective)])].push_back(
            found == eventOf.end() ? nullptr : found->second);
    }
    return out;
}

class RankDump {
public:
    RankDump(const Scenario& scenario, const Plan& plan, const StepSchedule& real, int rank,
             RunDump& out)
        : scenario_(scenario), plan_(plan), real_(real), rank_(rank), out_(out) {}

    // The rank's real collectives, each timed by its run source; the first
    // without one is where the rank stopped: pending when `pending`.
    void write(const RunOccurrences& run, bool pending) {
        const std::vector<int> mine = collectivesOf(real_, rank_);
        std::map<CollectiveKey, int> realCount, seen;
        for (int c : mine) ++realCount[keyOf(real_.collectives[size_t(c)])];
        for (int c : mine) {
            const CollectiveKey key = keyOf(real_.collectives[size_t(c)]);
            const auto source = run.find(key);
            const int n = realCount[key], i = seen[key]++;
            const int k = source == run.end() ? 0 : int(source->second.size());
            const TraceEvent* e = k == 0 ? nullptr : source->second[size_t(i * k / n)];
            if (!e) {
                if (pending) addPending(c, lastEndUs_);
                return;
            }
            out_.rechunked = out_.rechunked || n != k;
            // The real chunks one run chunk stands for share its time evenly.
            const int first = (i * k / n * n + k - 1) / k, share = sharedBy(i, n, k);
            const double slice = (e->endUs - e->startUs) / share;
            addCompleted(c, *e, e->startUs + slice * (i - first), slice);
        }
    }

private:
    // How many of the n real occurrences map to the same run one as i.
    static int sharedBy(int i, int n, int k) {
        int count = 0;
        for (int j = 0; j < n; ++j) count += j * k / n == i * k / n;
        return count;
    }

    TraceEvent eventOf(int c) const {
        const ScheduledCollective& sc = real_.collectives[size_t(c)];
        TraceEvent e;
        e.rank = rank_;
        e.op = std::string(traceNameOf(sc.op));
        e.groupRanks = real_.groups[size_t(sc.group)];
        std::sort(e.groupRanks.begin(), e.groupRanks.end());
        e.label.phase = std::string(stepPhaseName(sc.phase));
        e.label.scheduleIndex = sc.scheduleIndex;
        e.label.group = sc.planGroup;
        e.label.batch = sc.batch;
        e.label.tpTransition = sc.tpTransition;
        e.label.mesh = meshOf(scenario_, plan_, sc);
        e.label.meshDim = sc.meshDim;
        return e;
    }

    void addCompleted(int c, const TraceEvent& source, double startUs, double us) {
        TraceEvent e = eventOf(c);
        e.seq = source.seq;  // the groups are named in the order the run first used them
        e.startUs = startUs;
        e.endUs = startUs + us;
        lastEndUs_ = std::max(lastEndUs_, source.endUs);
        out_.trace.events.push_back(std::move(e));
        out_.buffers.push_back(scheduledBuffers(scenario_, plan_, real_, c, rank_));
    }

    void addPending(int c, double startUs) {
        PendingCollective p{eventOf(c), scheduledBuffers(scenario_, plan_, real_, c, rank_)};
        p.event.seq = std::numeric_limits<int64_t>::max() / 2 + rank_;  // after every traced one
        p.event.startUs = p.event.endUs = startUs;
        out_.pending.push_back(std::move(p));
    }

    const Scenario& scenario_;
    const Plan& plan_;
    const StepSchedule& real_;
    int rank_;
    RunDump& out_;
    double lastEndUs_ = 0;
};

}  // namespace

RunDump runDumpAtRealShapes(const Scenario& scenario, const Plan& plan, const Trace& trace,
                            const std::vector<std::vector<int64_t>>& paramShapes,
                            const std::vector<std::vector<int64_t>>& tpShapes, bool failed,
                            int failedRank) {
    RunDump out;
    const StepSchedule real = stepSchedule(scenario, plan);
    const StepSchedule run =
        paramShapes.empty() ? real : stepSchedule(scenario, plan, paramShapes, tpShapes);
    const ScheduleTraceMatch match = matchScheduleToTrace(run, trace);
    for (int r = 0; r < int(real.ranks.size()); ++r)
        RankDump(scenario, plan, real, r, out)
            .write(runOccurrences(run, trace, match, r), failed && r != failedRank);
    return out;
}

}  // namespace hsdp
