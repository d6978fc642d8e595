// SPDX-License-Identifier: Apache-2.0
#include "distributed/share_merge.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "run/run_parts.h"
#include "runtime/group_set.h"

namespace hsdp {

namespace {

// Each process numbered its collectives itself. The n-th collective a rank
// makes on a group is the same call on every member (the runtime checks
// it), so (group, n) names one collective across processes; the ids then
// follow program order as a single process's recorder gives them.
void renumber(std::vector<TraceEvent>& events) {
    std::stable_sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
        return std::tie(a.rank, a.startUs) < std::tie(b.rank, b.startUs);
    });
    std::map<std::pair<int, std::string>, int64_t> made;  // (rank, group) -> calls so far
    std::map<std::pair<std::string, int64_t>, int64_t> ids;
    int64_t compute = 0;  // compute spans: -1, -2, ... as a single recorder numbers them
    for (auto& e : events) {
        if (isCompute(e)) {
            e.seq = -(++compute);
            continue;
        }
        const std::string group = groupKey(e.groupRanks);
        const auto key = std::make_pair(group, ++made[{e.rank, group}]);
        e.seq = ids.try_emplace(key, int64_t(ids.size())).first->second;
    }
    numberInProgramOrder(events);
}

Trace mergedTrace(const std::vector<ShareOutcome>& shares) {
    double origin = std::numeric_limits<double>::max();
    for (const auto& s : shares) origin = std::min(origin, s.startEpochUs);
    Trace trace;
    for (const auto& s : shares)
        for (TraceEvent e : s.trace.events) {
            const double shift = s.startEpochUs - origin;
            e.startUs += shift;
            e.endUs += shift;
            trace.events.push_back(std::move(e));
        }
    renumber(trace.events);  // leaves them sorted by (rank, start)
    return trace;
}

const ShareOutcome* firstFailure(const std::vector<ShareOutcome>& shares) {
    const ShareOutcome* first = nullptr;
    for (const auto& s : shares)
        if (!s.error.empty() && (!first || s.errorEpochUs < first->errorEpochUs)) first = &s;
    return first;
}

}  // namespace

RunResult mergeShares(const Scenario& scenario, const Plan& plan, const RunOptions& options,
                      const std::vector<ShareOutcome>& shares, const std::string& lost) {
    RunResult result;
    ExecEnv env;
    prepareRun(scenario, plan, options, false, env, result);
    RunSink sink;
    for (const auto& s : shares) sink.absorb(s.params, s.transitions, s.memory);
    const ShareOutcome* failed = firstFailure(shares);
    if (!lost.empty()) {
        // What the lost process was doing is what its peers saw fail first.
        result.error = lost;
        if (failed) result.error += "; its peers first saw: " + failed->error;
    } else if (failed) {
        result.error = failed->error;
        result.errorRank = failed->errorRank;
    }
    for (const auto& s : shares) {
        result.cancelled = result.cancelled || s.cancelled;
        // Every process waited for all to connect: the slowest saw the whole.
        result.connectSeconds = std::max(result.connectSeconds, s.connectSeconds);
    }
    concludeRun(env, sink, mergedTrace(shares), result);
    return result;
}

}  // namespace hsdp
